import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { uploads } from '../../db/schema'

const DISPLAY_LONG_SIDE = 2048
const THUMB_LONG_SIDE = 480

// Two cores and hundreds of phones: one image at a time keeps memory flat during a burst.
sharp.concurrency(1)
let queue: Promise<void> = Promise.resolve()
const queued = new Set<string>()

/**
 * Thumbnail and display image of a photo: EXIF orientation applied, then every bit of metadata
 * (GPS included) dropped, which is sharp's default when `withMetadata` is not called.
 */
export async function deriveImages(id: string): Promise<void> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row || !row.confirmedAt || row.derivedAt) return
  const store = useMediaStore()
  if (row.kind !== 'photo') {
    await useDb().update(uploads).set({ derivedAt: new Date() }).where(eq(uploads.id, id))
    return
  }
  const original = await streamToBuffer(await store.read(row.storageKey))
  let width: number | null = null
  let height: number | null = null
  let displayKey: string | null = null
  let thumbKey: string | null = null
  try {
    const display = await sharp(original, { failOn: 'none' }).rotate()
      .resize({ width: DISPLAY_LONG_SIDE, height: DISPLAY_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82, progressive: true })
      .toBuffer({ resolveWithObject: true })
    const thumb = await sharp(display.data)
      .resize({ width: THUMB_LONG_SIDE, height: THUMB_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer()
    const meta = await sharp(original).metadata()
    const rotated = (meta.orientation ?? 1) >= 5
    width = (rotated ? meta.height : meta.width) ?? display.info.width
    height = (rotated ? meta.width : meta.height) ?? display.info.height
    displayKey = derivedKey(id, row.storageKey, 'display', 'jpg')
    thumbKey = derivedKey(id, row.storageKey, 'thumb', 'webp')
    await store.put(displayKey, display.data, 'image/jpeg')
    await store.put(thumbKey, thumb, 'image/webp')
  }
  catch (error) {
    if (error instanceof StorageUnavailableError) throw error
    // An image libvips cannot decode (a HEIC variant, say): keep the original, do not retry forever.
    console.warn(`[derive] ${id}: ${error instanceof Error ? error.message : error}`)
  }
  const [updated] = await useDb().update(uploads)
    .set({ width, height, displayKey, thumbKey, derivedAt: new Date() })
    .where(eq(uploads.id, id))
    .returning({ id: uploads.id })
  if (!updated) {
    // Deleted while we worked: the new objects must not stay behind.
    for (const key of [displayKey, thumbKey]) if (key) await deleteObjectOrRetryLater(key)
  }
}

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

/** Queues derivation off the request path; the sweeper catches anything a crash interrupted. */
export function scheduleDerivation(id: string): Promise<void> {
  if (queued.has(id)) return queue
  queued.add(id)
  queue = queue
    .then(() => deriveImages(id))
    .catch(error => console.error(`[derive] ${id}:`, error instanceof Error ? error.message : error))
    .finally(() => queued.delete(id))
  try {
    useEvent().waitUntil(queue)
  }
  catch {
    // No request around (sweeper): the caller awaits the returned promise itself.
  }
  return queue
}
