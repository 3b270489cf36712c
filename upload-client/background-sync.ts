/**
 * Background Sync for the guest's queue: the page asks the browser to wake the service
 * worker once the network is back, and the worker sends what is left (service-worker/upload-sync.ts)
 * even if the tab was closed by then. Chromium has it; in Safari and Firefox nothing happens here
 * and the queue resumes when the page is opened again.
 */

/** The tag the page registers and the worker's `sync` handler answers. */
export const UPLOAD_SYNC_TAG = 'upload-queue'

/** Background Sync's part of a registration (not in TypeScript's DOM types: Chromium only). */
interface SyncManager {
  register(tag: string): Promise<void>
}

let syncManager: SyncManager | null = null

/**
 * Keeps the worker's registration at hand once it is active: a page being closed (`pagehide`)
 * has no time left to look it up, but can still make one synchronous call.
 */
export function prepareUploadSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  void navigator.serviceWorker.ready.then((registration) => {
    const sync = (registration as ServiceWorkerRegistration & { sync?: SyncManager }).sync
    if (sync && typeof sync.register === 'function') syncManager = sync
  })
}

/** Asks for a sync of the queue (one pending sync per tag: asking again changes nothing); silent where unsupported. */
export function requestUploadSync(): void {
  if (!syncManager) return
  syncManager.register(UPLOAD_SYNC_TAG).catch(() => undefined)
}
