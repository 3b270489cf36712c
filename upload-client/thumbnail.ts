import type { MediaKind } from '#shared/limits'
import { decodeImageElement } from './image-element'
import { withVideoFrame } from './video-poster'

const SIZE = 112

/**
 * A small square JPEG of a picked photo or of a video's first frame. Showing
 * the original in the list would have a phone decode dozens of 12-megapixel images at once; one
 * thumbnail is made at a time instead. Null when this browser cannot decode the file (HEIC in
 * Chrome, say): the row shows an icon then. Kept with the queue (store.ts), so a reload, or a row
 * whose file was let go once sent, still shows it.
 */
let chain: Promise<unknown> = Promise.resolve()

export function makeThumbnail(file: Blob, kind: MediaKind): Promise<Blob | null> {
  const next = chain.then(() => (kind === 'photo' ? photoThumbnail(file) : videoThumbnail(file))).catch(() => null)
  chain = next
  return next
}

function drawSquare(source: CanvasImageSource, width: number, height: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas')
  canvas.width = SIZE
  canvas.height = SIZE
  const context = canvas.getContext('2d')
  if (!context || !width || !height) return Promise.resolve(null)
  const side = Math.min(width, height)
  context.drawImage(source, (width - side) / 2, (height - side) / 2, side, side, 0, 0, SIZE, SIZE)
  return new Promise(resolve => canvas.toBlob(blob => resolve(blob), 'image/jpeg', 0.7))
}

async function photoThumbnail(file: Blob): Promise<Blob | null> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file)
      try {
        return await drawSquare(bitmap, bitmap.width, bitmap.height)
      }
      finally {
        bitmap.close()
      }
    }
    catch { /* fall through to an <img>, which some browsers decode more formats with */ }
  }
  const image = await decodeImageElement(file)
  return drawSquare(image, image.naturalWidth, image.naturalHeight)
}

function videoThumbnail(file: Blob): Promise<Blob | null> {
  return withVideoFrame(file, duration => Math.min(0.1, duration), video => drawSquare(video, video.videoWidth, video.videoHeight))
}
