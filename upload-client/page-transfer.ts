import { waitForOnline } from './backoff'
import { displayCopyStep } from './display-copy'
import { hashBlob } from './file-hash'
import type { QueueItem } from './item'
import { publicImagesOf, sendPublicImages } from './phone-images'
import type { TransferEnvironment, TransferExtra } from './transfer'
import { putBlob } from './transport'
import { captureVideoPoster, sendVideoPoster } from './video-poster'

/**
 * A video's poster frame (and its display copy, display-copy.ts), or a photo's public images (phone-images.ts), made while the original
 * goes and kept for a reload: both need a document (or a worker it starts), so only the page
 * makes them.
 */
function pageExtras(item: QueueItem, file: Blob, signal: AbortSignal): TransferExtra[] {
  // A spoken guestbook message has no picture to go with it.
  if (item.kind === 'audio') return []
  if (item.kind === 'video') {
    const poster = captureVideoPoster(file)
    return [
      { send: (uploadId, sending) => sendVideoPoster(uploadId, poster, sending) },
      // Made only once init said the phone makes it (a server without ffmpeg), while the bytes go.
      displayCopyStep(item, file, signal),
    ]
  }
  const images = publicImagesOf(item.key, file, signal)
  return [{ send: (uploadId, sending) => sendPublicImages(uploadId, images, sending) }]
}

/** The page's way of sending a file: PUTs with progress, hashing in a worker, the extras, and waiting out an offline spell. */
export const pageTransfer: TransferEnvironment = {
  put: putBlob,
  hash: hashBlob,
  waitForNetwork: waitForOnline,
  maxLostConnections: Number.POSITIVE_INFINITY,
  extras: pageExtras,
  // Loaded with the first file, not with the page: /enviar's first load stays as it was.
  takenAt: async (file, contentType) => (await import('#shared/media/taken-at')).readTakenAt(file, contentType),
}
