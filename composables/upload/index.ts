/**
 * The guest's upload queue, as a feature folder: only what the upload page and its components use
 * is exported here (and so auto-imported); the transfer, transport, storage and media helpers stay
 * plain modules of this folder.
 */
export { itemPercent, itemState, useUploadQueue } from './useUploadQueue'
export type { ItemPhase, ItemState, QueueItem, RefusedFile, UploadQueue } from './useUploadQueue'
