import { useConfig } from '../config'
import { notFound } from '../http/errors'
import { createLocalMediaStore, type LocalMediaStore } from './local/driver'
import type { MediaStore } from './media-store'
import { createS3MediaStore } from './s3/driver'

let store: MediaStore | undefined
/** Set when the configured driver is the local disk: the /media routes exist only then. */
let local: LocalMediaStore | undefined

/** The configured driver: S3-compatible storage when S3_BUCKET is set, else the local disk. */
export function useMediaStore(): MediaStore {
  if (store) return store
  const config = useConfig()
  if (config.S3_BUCKET) store = createS3MediaStore(config)
  else store = local = createLocalMediaStore(config)
  return store
}

/** The local driver, for the /media routes that only exist when it is the one in use. */
export function useLocalMediaStore(): LocalMediaStore {
  useMediaStore()
  if (!local) throw notFound()
  return local
}

/**
 * Puts `driver` in place of the configured one (null: back to the configuration). For tests that
 * run the upload rules against a driver of their own, without the server around them.
 */
export function setMediaStore(driver: MediaStore | null): void {
  store = driver ?? undefined
  local = undefined
}
