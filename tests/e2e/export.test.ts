import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { mp4 } from '../support/fixtures'
import { api } from '../support/http'
import { lavfi, streamMedia } from '../support/ffmpeg-media'
import { S3_BUCKET, type TestS3 } from '../support/s3'
import { seedPhoto, seedUnconfirmed, seedVideo, setModeration, type Seeded } from '../support/seed'
import { uploadFile } from '../support/uploads'
import { unzip, type ZipEntry } from '../support/zip'

function s3Client(s3: TestS3) {
  return new S3Client({
    region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  })
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      }
      else if (ch === '"') {
        quoted = false
      }
      else {
        field += ch
      }
    }
    else if (ch === '"') {
      quoted = true
    }
    else if (ch === ',') {
      row.push(field)
      field = ''
    }
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    }
    else {
      field += ch
    }
  }
  expect(field).toBe('')
  expect(row).toEqual([])
  return rows
}

/** What a spreadsheet shows: the apostrophe that defuses a formula is not part of the value. */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell)

const SAFE_NAME = /^\d{4}-\d{2}-\d{2}_\d{4}_[a-z0-9-]+_[\w-]+\.(jpg|mp4)$/

describe.each(['local', 's3'] as const)('ZIP export (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  const approved: Seeded[] = []
  const excluded: string[] = []

  beforeAll(async () => {
    approved.push(
      await seedPhoto(server.url, { author: 'Maria', message: 'Felicidades!', fileName: 'IMG_0001.JPG' }),
      await seedPhoto(server.url, { author: 'João & Zoë', message: '=HYPERLINK("http://evil.example")', fileName: 'foto "especial".jpg' }),
      await seedPhoto(server.url, { author: '../../etc/passwd', message: 'linha 1\nlinha "2", fim', fileName: '../../../evil.jpg' }),
      await seedPhoto(server.url, { author: '+55 11 9999', message: '@SUM(A1)', fileName: '-1.jpg' }),
      await seedPhoto(server.url, { author: '', message: '', fileName: 'sem-nome.jpg' }),
      await seedVideo(server.url, { author: 'Pedro', message: 'dança', size: 3 * 1024 * 1024 + 17 }),
    )
    // Not exported: a rejected photo, a pending photo, an unconfirmed upload.
    const rejected = await seedPhoto(server.url, { author: 'Rejeitada' })
    await api(server.url, `/api/admin/uploads/${rejected.id}/reject`, { method: 'POST', cookie: server.cookie })
    await setModeration(server.url, server.cookie, 'pre')
    const pending = await seedPhoto(server.url, { author: 'Pendente' })
    await setModeration(server.url, server.cookie, 'post')
    excluded.push(rejected.id, pending.id, await seedUnconfirmed(server.url))
  }, 60_000)

  async function download() {
    const response = await fetch(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="fotos-\d{4}-\d{2}-\d{2}\.zip"$/)
    return unzip(Buffer.from(await response.arrayBuffer()))
  }

  function manifestOf(entries: ZipEntry[]) {
    const manifest = entries.find(entry => entry.name === 'manifest.csv')!
    expect(manifest).toBeDefined()
    const text = manifest.bytes.toString('utf8')
    expect(text.startsWith('\uFEFF')).toBe(true)
    const [header, ...rows] = parseCsv(text.slice(1))
    // In the event's language (Portuguese by default).
    expect(header).toEqual(['id', 'autor', 'mensagem', 'tipo', 'enviado em', 'arquivo', 'nome original', 'metadados', 'corações', 'comentários', 'momento', 'exibição'])
    return rows.map(row => row.map(unguard))
  }

  it('holds every approved original byte for byte, stored uncompressed, plus a manifest', async () => {
    const entries = await download()
    const media = entries.filter(entry => !entry.name.endsWith('.csv'))
    expect(entries.at(-1)!.name).toBe('manifest.csv')
    expect(entries.at(-2)!.name).toBe('guestbook.csv')
    expect(media).toHaveLength(approved.length)
    const names = media.map(entry => entry.name)
    expect(new Set(names).size).toBe(names.length)
    for (const entry of media) {
      expect(entry.name).toMatch(SAFE_NAME)
      expect(entry.compressionMethod).toBe(0)
    }

    const rows = manifestOf(entries)
    expect(rows).toHaveLength(approved.length)
    const records = new Map<string, any>()
    for (const item of (await api(server.url, '/api/admin/uploads?limit=200', { cookie: server.cookie })).body.items) records.set(item.id, item)
    for (const [id, author, message, kind, createdAt, file, originalFileName, metadata] of rows) {
      const record = records.get(id!)
      expect(record, id).toBeDefined()
      expect(metadata).toBe(kind === 'video' ? 'localização da gravação removida' : 'original, como foi enviado')
      expect({ author, message, kind, createdAt, originalFileName }).toEqual({
        author: record.author, message: record.message, kind: record.kind, createdAt: record.createdAt, originalFileName: record.fileName,
      })
      const seeded = approved.find(s => s.id === id)!
      const entry = media.find(e => e.name === file)!
      expect(entry, file).toBeDefined()
      expect(entry.name).toContain(id!)
      expect(entry.bytes.equals(seeded.bytes), file).toBe(true)
    }
    // Oldest first, and nothing that is not approved and confirmed.
    expect(rows.map(row => row[0])).toEqual(approved.map(s => s.id))
    for (const id of excluded) expect(rows.map(row => row[0])).not.toContain(id)
  })

  it('holds guestbook.csv: approved messages only, formulas defused, a spoken one naming its recording in the archive', async () => {
    const post = (author: string, text: string) => api(server.url, '/api/guestbook', { method: 'POST', json: { author, text } })
    const written = (await post('=cmd|calc', 'Parabéns, "queridos"\nlinha 2')).body
    const rejected = (await post('Recusado', 'fora')).body
    await api(server.url, `/api/admin/guestbook/${rejected.id}`, { method: 'PATCH', json: { status: 'rejected' }, cookie: server.cookie })
    const sound = streamMedia(lavfi('sine=duration=1'), ['-c:a', 'libopus', '-f', 'webm'])
    const { init: voice } = await uploadFile(server.url, sound, { contentType: 'audio/webm', size: sound.length, durationSec: 1, author: 'Vovó', message: '' })

    try {
      const entries = await download()
      const csv = entries.find(entry => entry.name === 'guestbook.csv')!.bytes.toString('utf8')
      expect(csv.startsWith('\uFEFF')).toBe(true)
      expect(csv).toContain('\'=cmd|calc,"Parabéns, ""queridos""\nlinha 2"')
      const [header, ...rows] = parseCsv(csv.slice(1))
      // In the event's language (pt-BR here), as manifest.csv.
      expect(header).toEqual(['id', 'tipo', 'autor', 'recado', 'duração (s)', 'enviado em', 'arquivo'])
      // An id is a cell like any other: one that starts with "-" (1 in 64) carries the formula guard.
      expect(rows.map(row => unguard(row[0]!))).toEqual([written.id, voice.id])
      const spoken = rows[1]!
      // The length read from the recording's bytes (Opus frames end past the one second of sine), not the phone's word.
      expect(spoken.slice(1, 5)).toEqual(['audio', 'Vovó', '', '1.001'])
      const recording = entries.find(entry => entry.name === spoken[6])!
      expect(recording.name).toMatch(/_vovo_[\w-]+\.weba$/)
      expect(recording.bytes.length).toBe(sound.length)
    }
    finally {
      // Even after a failed assertion: the recording would otherwise be one file too many in the next test's archive.
      for (const id of [written.id, rejected.id, voice.id]) {
        await api(server.url, `/api/admin/guestbook/${id}`, { method: 'DELETE', cookie: server.cookie })
      }
    }
  })

  it('defuses formulas and quotes guest text in the manifest', async () => {
    const entries = await download()
    const raw = entries.find(entry => entry.name === 'manifest.csv')!.bytes.toString('utf8')
    expect(raw).toContain('"\'=HYPERLINK(""http://evil.example"")"')
    expect(raw).toContain('\'+55 11 9999')
    expect(raw).toContain('\'@SUM(A1)')
    expect(raw).toContain('"linha 1\nlinha ""2"", fim"')
    expect(raw).toContain(',"foto ""especial"".jpg"')
  })

  it('streams a large video intact', async () => {
    const bytes = mp4(60 * 1024 * 1024)
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'video/mp4', size: bytes.length, durationSec: 30, author: 'Grande' })
    expect(confirm.body.status).toBe('approved')
    const entries = await download()
    const entry = entries.find(e => e.name.includes(init.id))!
    expect(entry.bytes.length).toBe(bytes.length)
    expect(entry.bytes.equals(bytes)).toBe(true)

    // An admin who gives up half-way: the server stops reading storage and keeps serving.
    const aborted = new AbortController()
    const partial = await fetch(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie }, signal: aborted.signal })
    const reader = partial.body!.getReader()
    expect((await reader.read()).done).toBe(false)
    aborted.abort()
    await reader.read().catch(() => undefined)
    expect((await api(server.url, '/api/stats')).status).toBe(200)
    expect((await download()).find(e => e.name.includes(init.id))!.bytes.length).toBe(bytes.length)
    expect(server.output()).not.toContain('[export]')
    await api(server.url, `/api/admin/uploads/${init.id}`, { method: 'DELETE', cookie: server.cookie })
  }, 120_000)

  it('puts the photos and videos of each moment in a folder of its own, named in the manifest; the rest at the root', async () => {
    const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })
    const cerimonia = (await admin('POST', '/api/admin/moments', { name: 'Cerimônia' })).body
    const festa = (await admin('POST', '/api/admin/moments', { name: '../Festa/Dança' })).body
    const [photo, , , , , video] = approved
    expect((await admin('PATCH', `/api/admin/uploads/${photo!.id}`, { momentId: cerimonia.id })).status).toBe(200)
    expect((await admin('PATCH', `/api/admin/uploads/${video!.id}`, { momentId: festa.id })).status).toBe(200)
    try {
      const entries = await download()
      const rows = manifestOf(entries)
      const rowOf = (id: string) => rows.find(row => row[0] === id)!
      expect(rowOf(photo!.id)[5]).toMatch(/^Cerimônia\/\d{4}-\d{2}-\d{2}_\d{4}_[a-z0-9-]+_[\w-]+\.jpg$/)
      expect(rowOf(photo!.id)[10]).toBe('Cerimônia')
      expect(rowOf(video!.id)[5]).toMatch(/^-Festa-Dança\/.+\.mp4$/)
      expect(rowOf(video!.id)[10]).toBe('../Festa/Dança')
      for (const seeded of [photo!, video!]) {
        const entry = entries.find(e => e.name === rowOf(seeded.id)[5])!
        expect(entry, seeded.id).toBeDefined()
        expect(entry.bytes.equals(seeded.bytes)).toBe(true)
      }
      for (const seeded of approved.slice(1, 5)) {
        expect(rowOf(seeded.id)[5]).toMatch(SAFE_NAME)
        expect(rowOf(seeded.id)[10]).toBe('')
      }
      const folders = new Set(entries.map(e => e.name).filter(name => name.includes('/')).map(name => name.split('/')[0]))
      expect(folders).toEqual(new Set(['Cerimônia', '-Festa-Dança']))
    }
    finally {
      for (const moment of [cerimonia, festa]) expect((await admin('DELETE', `/api/admin/moments/${moment.id}`)).status).toBe(204)
    }
  })

  it('lists an original that vanished from storage without a file, and still completes', async () => {
    const victim = await seedPhoto(server.url, { author: 'Sumiu' })
    if (driver === 's3') await s3Client(server.s3).send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: victim.key }))
    else rmSync(join(server.mediaDir, victim.key))
    const entries = await download()
    const row = manifestOf(entries).find(r => r[0] === victim.id)!
    expect(row[5]).toBe('')
    expect(entries.filter(e => !e.name.endsWith('.csv'))).toHaveLength(approved.length)
    await api(server.url, `/api/admin/uploads/${victim.id}`, { method: 'DELETE', cookie: server.cookie })
  })
})
