import { createLocalMediaStore, type LocalMediaStore } from './local-driver'
import type { MediaStore } from './media-store'
import { createS3MediaStore } from './s3-driver'

let store: MediaStore | undefined

/** The configured driver: S3-compatible storage when S3_BUCKET is set, else the local disk. */
export function useMediaStore(): MediaStore {
  if (store) return store
  const config = useConfig()
  store = config.S3_BUCKET ? createS3MediaStore(config) : createLocalMediaStore(config)
  return store
}

/** The local driver, for the /media routes that only exist when it is the one in use. */
export function useLocalMediaStore(): LocalMediaStore {
  const current = useMediaStore()
  if (current.driver !== 'local') throw notFound()
  return current as LocalMediaStore
}
