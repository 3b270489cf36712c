import { StorageUnavailableError } from './media-store'
import { useMediaStore } from './use-media-store'

// A presigned PUT is computed locally, so init would happily hand out URLs to a storage that is
// down. One cheap round trip, remembered briefly, turns that into an honest 503 with no record.
const HEALTHY_FOR_MS = 5000
let healthyUntil = 0

let checking: Promise<void> | undefined

/** What any storage call learnt: a failure forgets the remembered health at once, a success renews it. */
export function markStorageDown(): void {
  healthyUntil = 0
}

export function markStorageUp(): void {
  healthyUntil = Date.now() + HEALTHY_FOR_MS
}

/**
 * Runs storage work and lets its outcome update the remembered health: without this, init went
 * on handing out URLs for up to 5 s after a confirm or the health check had found storage down.
 */
export async function watchStorage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  }
  catch (error) {
    if (error instanceof StorageUnavailableError) markStorageDown()
    throw error
  }
}

export async function assertStorageReachable(): Promise<void> {
  if (Date.now() < healthyUntil) return
  // One check at a time: a burst of inits waits for the same ping instead of sending its own.
  checking ??= useMediaStore().ping()
    .then(markStorageUp)
    .catch((error) => {
      markStorageDown()
      throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error)
    })
    .finally(() => {
      checking = undefined
    })
  return checking
}
