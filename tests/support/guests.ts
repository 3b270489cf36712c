import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import type { GalleryItem } from '#shared/schemas/gallery'
import { api } from './http'
import { waitForDerived } from './seed'
import { uploadFile } from './uploads'
import { CLIP, CLIP_DURATION_SEC, labelledJpeg } from './media'

/** What a guest sent, as the tests compare it with the pages. */
export interface GuestUpload {
  id: string
  kind: 'photo' | 'video'
  author: string
  message: string
  /** `approved` under post-moderation, `pending` under pre-moderation. */
  status: string
}

const SHAPES = [[1600, 1200], [1080, 1350], [1200, 1200], [1920, 1080]] as const
const clip = readFileSync(CLIP)

/**
 * One upload through the real guest API (init → PUT → confirm), the way /enviar sends it: photo
 * `n` is a picture with `#n` written on it in its own colour and shape (so screenshots tell them
 * apart); a video is the real 2 s clip, with a poster frame sent before confirm unless
 * `poster: false`. Photos are derived by the server in the background: `derived` waits for
 * their display and thumbnail images, as a gallery visitor some seconds later would see them.
 */
export async function guestUpload(
  base: string,
  cookie: string,
  n: number,
  fields: { kind?: 'photo' | 'video', author?: string, message?: string, poster?: boolean, derived?: boolean } = {},
): Promise<GuestUpload> {
  const kind = fields.kind ?? 'photo'
  const author = fields.author ?? ''
  const message = fields.message ?? ''
  const hue = (n * 47) % 360
  let bytes: Buffer
  let poster: Buffer | undefined
  if (kind === 'photo') {
    const [width, height] = SHAPES[n % SHAPES.length]!
    bytes = await labelledJpeg(width, height, hue, `#${n}`)
  }
  else {
    bytes = clip
    if (fields.poster !== false) poster = await labelledJpeg(480, 360, hue, `▶ #${n}`)
  }
  const { init, confirm } = await uploadFile(base, bytes, {
    fileName: kind === 'photo' ? `IMG_${String(n).padStart(4, '0')}.jpg` : `VID_${String(n).padStart(4, '0')}.mp4`,
    contentType: kind === 'photo' ? 'image/jpeg' : 'video/mp4',
    size: bytes.length,
    author,
    message,
    ...(kind === 'video' ? { durationSec: CLIP_DURATION_SEC } : {}),
  }, { poster })
  assert.equal(confirm.status, 200, `confirm answered ${confirm.status}: ${JSON.stringify(confirm.body)}`)
  if (kind === 'photo' && fields.derived !== false) await waitForDerived(base, cookie, init.id)
  return { id: init.id, kind, author, message, status: confirm.body.status }
}

/**
 * `count` approved uploads (the event must be under post-moderation), sent one after another so
 * that each is newer than the last: photos with and without words, and every seventh a video,
 * with a poster frame except every fourteenth. Answers them newest first, the gallery's order,
 * after checking that GET /api/gallery lists exactly these in that order.
 */
export async function seedGallery(base: string, cookie: string, count: number): Promise<GuestUpload[]> {
  const sent: GuestUpload[] = []
  for (let i = 1; i <= count; i++) {
    const upload = i % 7 === 0
      ? await guestUpload(base, cookie, i, { kind: 'video', author: `Convidado ${i}`, poster: i % 14 !== 0 })
      : await guestUpload(base, cookie, i, {
          author: i % 3 ? `Convidado ${i}` : '',
          message: i % 2 ? `Mensagem número ${i} para os noivos` : '',
          derived: false,
        })
    assert.equal(upload.status, 'approved')
    sent.unshift(upload)
  }
  await Promise.all(sent.filter(upload => upload.kind === 'photo').map(upload => waitForDerived(base, cookie, upload.id)))
  assert.deepEqual((await galleryItems(base)).map(item => item.id), sent.map(upload => upload.id))
  return sent
}

/** Every item GET /api/gallery lists now, newest first (all pages). */
export async function galleryItems(base: string): Promise<GalleryItem[]> {
  const items: GalleryItem[] = []
  let cursor: string | null = null
  do {
    const page: { status: number, body: { items: GalleryItem[], nextCursor: string | null } } = await api(base, `/api/gallery?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    assert.equal(page.status, 200)
    items.push(...page.body.items)
    cursor = page.body.nextCursor
  } while (cursor)
  return items
}
