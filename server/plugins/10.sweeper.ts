/**
 * On a long-running server (the venue laptop, a VPS) the sweeper runs on a timer, first soon after
 * start so that whatever a crash interrupted is finished. Serverless presets use the cron task.
 */
export default defineNitroPlugin((nitroApp) => {
  const seconds = useConfig().SWEEP_INTERVAL_SECONDS
  if (!seconds || !isLongRunningPreset()) return
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      await dbReady()
      const report = await sweep()
      if (report.staleRemoved || report.deletionsRetried || report.leftovers || report.staged || report.derived) console.info('[sweep]', JSON.stringify(report))
    }
    catch (error) {
      console.error('[sweep] failed:', error instanceof Error ? error.message : error)
    }
    finally {
      running = false
    }
  }
  const first = setTimeout(run, Math.min(5, seconds) * 1000)
  const timer = setInterval(run, seconds * 1000)
  first.unref?.()
  timer.unref?.()
  nitroApp.hooks.hook('close', () => {
    clearTimeout(first)
    clearInterval(timer)
  })
})
