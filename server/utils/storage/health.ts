import { StorageUnavailableError } from './media-store'

// A presigned PUT is computed locally, so init would happily hand out URLs to a storage that is
// down. One cheap round trip, remembered briefly, turns that into an honest 503 with no record.
const HEALTHY_FOR_MS = 5000
let healthyUntil = 0

let checking: Promise<void> | undefined

export async function assertStorageReachable(): Promise<void> {
  if (Date.now() < healthyUntil) return
  // One check at a time: a burst of inits waits for the same ping instead of sending its own.
  checking ??= useMediaStore().ping()
    .then(() => {
      healthyUntil = Date.now() + HEALTHY_FOR_MS
    })
    .catch((error) => {
      healthyUntil = 0
      throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error)
    })
    .finally(() => {
      checking = undefined
    })
  return checking
}
