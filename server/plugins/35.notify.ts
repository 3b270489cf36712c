/**
 * Notifications for the couple are sent by a timer in the long-running server; after a restart,
 * what was queued (a batch waiting, or its retries) goes out as it falls due.
 */
export default defineNitroPlugin((nitroApp) => {
  if (!isLongRunningPreset()) return
  dbReady()
    .then(() => scheduleNotifyFlush())
    .catch(error => console.error('[notify] could not resume the queue:', error instanceof Error ? error.message : error))
  nitroApp.hooks.hook('close', () => stopNotifyTimer())
})
