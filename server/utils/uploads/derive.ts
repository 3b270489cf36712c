import { availableParallelism } from 'node:os'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { uploads } from '../../../db/schema'
import { PUBLIC_IMAGE_VARIANTS } from '#shared/media/public-image'

const DISPLAY_LONG_SIDE = PUBLIC_IMAGE_VARIANTS.display.longSide

// One libvips thread per image and one image per core: after a burst of three hundred phones the
// backlog drains on every core, while each image holds ~50 MB at most (bench/RESULTS.md, load).
sharp.concurrency(1)
const DERIVE_CONCURRENCY = availableParallelism()

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

/** In the order they were queued: the newest at the end. */
const waiting: { id: string, queuedAt: number, done: () => void }[] = []
const scheduled = new Map<string, Promise<void>>()
let running = 0

/** A photo waiting this long is aged: it gets every other free slot until none is left. */
const AGED_AFTER_MS = 15_000
let agedTurn = false

/**
 * Newest first: at the peak, a guest who has just sent a photo sees it on the screen soon, where
 * a first-come queue would hold it behind the whole burst. No photo waits without bound for it:
 * once the oldest has waited AGED_AFTER_MS, aged photos (oldest first) and the newest take turns,
 * so the backlog of aged ones drains at half the rate at least.
 */
function nextWaiting() {
  const oldest = waiting[0]!
  agedTurn = !agedTurn
  if (agedTurn && Date.now() - oldest.queuedAt >= AGED_AFTER_MS) return waiting.shift()!
  return waiting.pop()!
}

function startWaiting() {
  while (running < DERIVE_CONCURRENCY && waiting.length > 0) {
    const { id, done } = nextWaiting()
    running++
    deriveImages(id)
      .catch(error => console.error(`[derive] ${id}:`, error instanceof Error ? error.message : error))
      .finally(() => {
        running--
        scheduled.delete(id)
        done()
        startWaiting()
      })
  }
}

/**
 * Queues derivation off the request path (newest first, see nextWaiting); the promise settles
 * when this photo is done. The sweeper catches anything a crash interrupted.
 */
export function scheduleDerivation(id: string): Promise<void> {
  let finished = scheduled.get(id)
  if (!finished) {
    finished = new Promise<void>(done => waiting.push({ id, queuedAt: Date.now(), done }))
    scheduled.set(id, finished)
    startWaiting()
  }
  try {
    useEvent().waitUntil(finished)
  }
  catch {
    // No request around (sweeper): the caller awaits the returned promise itself.
  }
  return finished
}

/** Photos of this instance waiting for, or in, derivation: until done they are not in the gallery. */
export function derivationBacklog(): number {
  return scheduled.size
}

/**
 * For uploads being deleted: drops those still waiting (they would find no record) and waits for
 * those this instance is deriving right now (about a second each).
 */
export async function settleDerivations(ids: string[]): Promise<void> {
  const wanted = new Set(ids)
  for (let index = waiting.length - 1; index >= 0; index--) {
    const item = waiting[index]!
    if (!wanted.has(item.id)) continue
    waiting.splice(index, 1)
    scheduled.delete(item.id)
    item.done()
  }
  await Promise.all(ids.flatMap(id => scheduled.get(id) ?? []))
}
