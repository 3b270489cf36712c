import { createClient, type Client } from '@libsql/client'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { jpeg, mp4 } from '../support/fixtures'
import { galleryItems } from '../support/guests'
import { api, fetchFresh, login } from '../support/http'
import { S3_BUCKET, serviceS3Client, startS3, type TestS3 } from '../support/s3'
import { ROOT, startServer, type TestServer } from '../support/server'

/**
 * An event's data from the first release, opened by this build: a database made by the oldest
 * migration alone, with uploads, settings and the guests' words written in that schema's columns,
 * and their bytes in storage. The server applies every later migration at start (however many
 * there are by now) and must then show every upload, setting and message as that release did.
 */
const MIGRATIONS = join(ROOT, 'db/migrations')
const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number, when: number, tag: string }[] }
const oldest = [...journal.entries].sort((a, b) => a.idx - b.idx)[0]!

/** The oldest migration applied as the server (or `drizzle-kit migrate`) applied it then, bookkeeping included. */
async function oldestSchema(db: Client) {
  const text = readFileSync(join(MIGRATIONS, `${oldest.tag}.sql`), 'utf8')
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.executeMultiple(statement)
  }
  await db.execute('CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)')
  await db.execute({
    sql: 'INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)',
    args: [createHash('sha256').update(text).digest('hex'), oldest.when],
  })
}

const newId = () => randomBytes(15).toString('base64url')
const T0 = Date.parse('2026-05-16T19:00:00Z')

interface OldUpload {
  id: string
  status: 'approved' | 'pending' | 'rejected'
  kind: 'photo' | 'video'
  author: string
  message: string
  fileName: string
  contentType: string
  original: Buffer
  storageKey: string
  width: number | null
  height: number | null
  durationSec: number | null
  /** Public images made by the old release's derivation (photos), or a video's poster frame. */
  display?: { key: string, bytes: Buffer }
  thumb?: { key: string, bytes: Buffer }
  poster?: { key: string, bytes: Buffer }
  createdAt: number
}

async function oldPhoto(status: OldUpload['status'], n: number, words: { author: string, message: string }, derived: boolean): Promise<OldUpload> {
  const id = newId()
  const original = await jpeg(64 + n, 48, { r: 40 * n, g: 90, b: 200 - 20 * n })
  const photo: OldUpload = {
    id, status, kind: 'photo', ...words, fileName: `IMG_000${n}.JPG`, contentType: 'image/jpeg', original,
    storageKey: `orig/${id}-${randomBytes(12).toString('base64url')}.jpg`, width: 64 + n, height: 48, durationSec: null,
    createdAt: T0 + n * 60_000,
  }
  if (derived) {
    photo.display = { key: `media/${id}-display.jpg`, bytes: await sharp(original).jpeg({ quality: 70 }).toBuffer() }
    photo.thumb = { key: `media/${id}-thumb.webp`, bytes: await sharp(original).resize(24).webp().toBuffer() }
  }
  return photo
}

async function oldVideo(n: number, words: { author: string, message: string }): Promise<OldUpload> {
  const id = newId()
  return {
    id, status: 'approved', kind: 'video', ...words, fileName: `VID_000${n}.MP4`, contentType: 'video/mp4', original: mp4(4096 + n),
    storageKey: `media/${id}-${randomBytes(12).toString('base64url')}.mp4`, width: 320, height: 240, durationSec: 12.5,
    poster: { key: `media/${id}-poster.jpg`, bytes: await jpeg(32, 24) },
    createdAt: T0 + n * 60_000,
  }
}

/** The row as the first release's confirm and derivation left it: no column a later migration added. */
function insertUpload(db: Client, upload: OldUpload) {
  const derivedAt = upload.kind === 'video' || upload.display ? upload.createdAt + 2000 : null
  return db.execute({
    sql: `INSERT INTO uploads (id, status, kind, author, message, file_name, content_type, size, width, height, duration_sec,
            storage_key, thumb_key, display_key, poster_key, derived_at, created_at, confirmed_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [upload.id, upload.status, upload.kind, upload.author, upload.message, upload.fileName, upload.contentType,
      upload.original.length, upload.width, upload.height, upload.durationSec, upload.storageKey, upload.thumb?.key ?? null,
      upload.display?.key ?? null, upload.poster?.key ?? null, derivedAt, upload.createdAt, upload.createdAt + 1000, upload.createdAt + 3000],
  })
}

function objectsOf(upload: OldUpload): { key: string, bytes: Buffer }[] {
  return [{ key: upload.storageKey, bytes: upload.original }, upload.display, upload.thumb, upload.poster].filter(object => object !== undefined)
}

async function bytesAt(base: string, url: string, cookie?: string): Promise<Buffer> {
  const response = await fetchFresh(new URL(url, base).href, cookie ? { headers: { cookie } } : {})
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

describe.each(['local', 's3'] as const)('a database made by the oldest migration, started by this build (%s driver)', (driver) => {
  let s3: TestS3 | undefined
  let server: TestServer | undefined
  afterAll(async () => {
    await server?.stop()
    await s3?.stop()
  })

  it('applies every later migration at start and shows every upload, setting and message it held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-media-upgrade-'))
    const cover = await oldPhoto('approved', 1, { author: 'Ana', message: 'Felicidades aos noivos' }, true)
    // Confirmed, its derivation not done when the old server stopped: the new one must make it.
    const underived = await oldPhoto('approved', 2, { author: 'Bruno', message: '' }, false)
    const video = await oldVideo(3, { author: 'Pedro', message: 'Que festa! 🎉 Viva os noivos' })
    const pending = await oldPhoto('pending', 4, { author: 'Tia Lúcia', message: 'Aguardando a aprovação' }, true)
    const rejected = await oldPhoto('rejected', 5, { author: '', message: 'não mostrar' }, true)
    const all = [cover, underived, video, pending, rejected]

    const old = createClient({ url: `file:${join(dir, 'event.db')}` })
    await oldestSchema(old)
    await old.execute({
      sql: `INSERT INTO event_settings (id, couple_names, event_date, max_file_size_bytes, allow_videos, max_video_duration_sec, moderation, cover_upload_id, updated_at)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: ['Ana & Bruno', '2026-05-16', 104_857_600, 0, 90, 'pre', cover.id, T0],
    })
    for (const upload of all) await insertUpload(old, upload)
    old.close()

    if (driver === 's3') {
      s3 = await startS3()
      const client = serviceS3Client(s3)
      for (const object of all.flatMap(objectsOf)) {
        await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: object.key, Body: object.bytes }))
      }
      client.destroy()
    }
    else {
      for (const object of all.flatMap(objectsOf)) {
        const path = join(dir, 'media', object.key)
        mkdirSync(dirname(path), { recursive: true })
        writeFileSync(path, object.bytes)
      }
    }

    server = await startServer({ ...s3?.env }, dir)
    const base = server.url
    const cookie = await login(base)

    const applied = createClient({ url: `file:${server.dbPath}` })
    const migrations = await applied.execute('SELECT count(*) AS n FROM "__drizzle_migrations"')
    applied.close()
    expect(Number(migrations.rows[0]!.n)).toBe(journal.entries.length)

    // Settings: every field the first schema had, as it was.
    const adminEvent = await api(base, '/api/admin/event', { cookie })
    expect(adminEvent.status).toBe(200)
    expect(adminEvent.body).toMatchObject({
      coupleNames: 'Ana & Bruno', eventDate: '2026-05-16', maxFileSizeBytes: 104_857_600, allowVideos: false,
      maxVideoDurationSec: 90, moderation: 'pre', coverUploadId: cover.id,
    })
    const publicEvent = await api(base, '/api/event')
    expect(publicEvent.status).toBe(200)
    expect(publicEvent.body).toMatchObject({ coupleNames: 'Ana & Bruno', eventDate: '2026-05-16', allowVideos: false, moderation: 'pre' })
    expect(publicEvent.body.cover.id).toBe(cover.id)

    // The admin list: every confirmed upload, newest first, with its status, words and file facts.
    const list = await api(base, '/api/admin/uploads?limit=200', { cookie })
    expect(list.status).toBe(200)
    expect(list.body.total).toBe(all.length)
    expect(list.body.items.map((item: any) => ({
      id: item.id, status: item.status, kind: item.kind, author: item.author, message: item.message, fileName: item.fileName,
      contentType: item.contentType, size: item.size, width: item.width, height: item.height, durationSec: item.durationSec,
      createdAt: item.createdAt, isCover: item.isCover,
    }))).toEqual([...all].reverse().map(upload => ({
      id: upload.id, status: upload.status, kind: upload.kind, author: upload.author, message: upload.message, fileName: upload.fileName,
      contentType: upload.contentType, size: upload.original.length, width: upload.width, height: upload.height,
      durationSec: upload.durationSec, createdAt: new Date(upload.createdAt).toISOString(), isCover: upload === cover,
    })))
    // The words are searchable (ASCII folding is what SQL could do for rows older than the search column).
    const search = await api(base, '/api/admin/uploads?q=felicidades', { cookie })
    expect(search.status).toBe(200)
    expect(search.body.items.map((item: any) => item.id)).toEqual([cover.id])

    // The gallery: the approved ones, once the photo whose derivation the old server left undone is made.
    const approved = all.filter(upload => upload.status === 'approved').reverse()
    const deadline = Date.now() + 30_000
    let items = await galleryItems(base)
    while (items.length < approved.length && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 200))
      items = await galleryItems(base)
    }
    expect(items.map(item => ({ id: item.id, kind: item.kind, author: item.author, message: item.message, durationSec: item.durationSec })))
      .toEqual(approved.map(upload => ({ id: upload.id, kind: upload.kind, author: upload.author, message: upload.message, durationSec: upload.durationSec })))

    // Their bytes, through the service: the old public images, the video, the poster, the originals.
    const listed = new Map(items.map(item => [item.id, item]))
    expect(await bytesAt(base, listed.get(cover.id)!.url)).toEqual(cover.display!.bytes)
    expect(await bytesAt(base, listed.get(cover.id)!.thumbUrl!)).toEqual(cover.thumb!.bytes)
    expect(await bytesAt(base, listed.get(video.id)!.url)).toEqual(video.original)
    expect(await bytesAt(base, listed.get(video.id)!.thumbUrl!)).toEqual(video.poster!.bytes)
    const made = await bytesAt(base, listed.get(underived.id)!.url)
    expect((await sharp(made).metadata()).format).toBe('jpeg')
    for (const item of list.body.items) {
      const upload = all.find(candidate => candidate.id === item.id)!
      expect(await bytesAt(base, item.originalUrl, cookie)).toEqual(upload.original)
    }
  })
})
