import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { uploads } from '../../../db/schema'
import { PUBLIC_IMAGE_VARIANTS } from '#shared/media/public-image'
import { useDb } from '../db'
import { deleteObjectOrRetryLater } from '../storage/deletions'
import { photoImageKeysOf } from '../storage/keys'
import { StorageUnavailableError } from '../storage/media-store'
import { useMediaStore } from '../storage/use-media-store'
import { queueDisplayCopy } from './display-copy'

const DISPLAY_LONG_SIDE = PUBLIC_IMAGE_VARIANTS.display.longSide

// One libvips thread per image, and the queue (derivation-queue.ts) runs one image per core.
sharp.concurrency(1)

/**
 * Thumbnail and display image of a photo: EXIF orientation applied, then every bit of metadata
 * (GPS included) dropped, which is sharp's default when `withMetadata` is not called.
 */
export async function deriveImages(id: string): Promise<void> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row || !row.confirmedAt || row.derivedAt) return
  const store = useMediaStore()
  if (row.kind === 'video' && row.display === 'pending') {
    // Off the image queue, which must not wait for a transcode: derived once the copy exists.
    void queueDisplayCopy(id)
    return
  }
  if (row.kind !== 'photo') {
    await useDb().update(uploads).set({ derivedAt: new Date() }).where(eq(uploads.id, id))
    return
  }
  const original = await streamToBuffer(await store.read(row.storageKey))
  let width: number | null = null
  let height: number | null = null
  let displayKey: string | null = null
  let thumbKey: string | null = null
  let thumb2xKey: string | null = null
  try {
    // The original is decoded once: both images are made from its resized pixels (a fifth
    // less work per photo than decoding the display JPEG again for the thumbnail).
    const resized = await sharp(original, { failOn: 'none' }).rotate()
      .resize({ width: DISPLAY_LONG_SIDE, height: DISPLAY_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true })
    const pixels = { raw: { width: resized.info.width, height: resized.info.height, channels: resized.info.channels } }
    const display = await sharp(resized.data, pixels).jpeg({ quality: 82, progressive: true }).toBuffer()
    const thumbOf = (longSide: number) => sharp(resized.data, pixels)
      .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer()
    const thumb = await thumbOf(PUBLIC_IMAGE_VARIANTS.thumb.longSide)
    const thumb2x = await thumbOf(PUBLIC_IMAGE_VARIANTS.thumb2x.longSide)
    const meta = await sharp(original).metadata()
    const rotated = (meta.orientation ?? 1) >= 5
    width = (rotated ? meta.height : meta.width) ?? resized.info.width
    height = (rotated ? meta.width : meta.height) ?? resized.info.height
    const keys = photoImageKeysOf(row)
    displayKey = keys.display
    thumbKey = keys.thumb
    thumb2xKey = keys.thumb2x
    await store.put(displayKey, display, 'image/jpeg')
    await store.put(thumbKey, thumb, 'image/webp')
    await store.put(thumb2xKey, thumb2x, 'image/webp')
  }
  catch (error) {
    if (error instanceof StorageUnavailableError) throw error
    // An image libvips cannot decode (a HEIC variant, say): keep the original, do not retry forever.
    console.warn(`[derive] ${id}: ${error instanceof Error ? error.message : error}`)
  }
  const [updated] = await useDb().update(uploads)
    .set({ width, height, displayKey, thumbKey, thumb2xKey, publicImageSource: displayKey ? 'server' : 'undecodable', derivedAt: new Date() })
    .where(eq(uploads.id, id))
    .returning({ id: uploads.id })
  if (!updated) {
    // Deleted while we worked: the new objects must not stay behind.
    for (const key of [displayKey, thumbKey, thumb2xKey]) if (key) await deleteObjectOrRetryLater(key)
  }
}

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}
