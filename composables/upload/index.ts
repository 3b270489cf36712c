/**
 * The guest's upload queue as a composable: what the upload page and its components use is
 * exported here (and so auto-imported). The plain modules it drives (one file's transfer, the
 * store, retries, hashing, what is read from a picked file) live in upload-client/, shared with
 * the service worker's Background Sync; see upload-client/README.md.
 */
export { useUploadQueue } from './useUploadQueue'
export type { RefusedFile, UploadQueue } from './useUploadQueue'
export { useEventLimits } from './useEventLimits'
export { useGuestLimit } from './useGuestLimit'
export { useSentUploads } from './useSentUploads'
export { useUploadWords } from './useUploadWords'
