// Upload throughput and memory of the local driver (issue 3): 1 GiB in 10 MiB parts, 4 at a time,
// against writing the same bytes with a plain Node file stream on the same disk in the same run;
// then 200 small photos at once. Run: npm run bench (or npx tsx bench/uploads.ts).
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { api, login } from '../tests/helpers/http'
import { jpeg, mp4 } from '../tests/helpers/fixtures'
import { startServer } from '../tests/helpers/server'
import { uploadFile } from '../tests/helpers/uploads'
import { peakRssMb, table, writeSection } from './lib'

const MiB = 1024 * 1024
const TOTAL = 1024 * MiB
const PART = 10 * MiB
const PARALLEL = 4

async function plainStreamMbps(part: Buffer): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-plain-'))
  const started = performance.now()
  const parts = Math.ceil(TOTAL / PART)
  let next = 1
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next <= parts) {
      const n = next++
      await pipeline(Readable.from([part.subarray(0, n === parts ? TOTAL - (parts - 1) * PART : PART)]), createWriteStream(join(dir, String(n))))
    }
  }))
  const seconds = (performance.now() - started) / 1000
  rmSync(dir, { recursive: true, force: true })
  return TOTAL / MiB / seconds
}

async function main() {
  const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' })
  try {
    const cookie = await login(server.url)
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { maxFileSizeBytes: 2 * TOTAL }, cookie })
    const bytes = mp4(PART)
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'big.mp4', contentType: 'video/mp4', size: TOTAL, durationSec: 60 } })).body
    const parts = created.upload.parts as { partNumber: number, url: string, size: number }[]
    let next = 0
    const started = performance.now()
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      while (next < parts.length) {
        const part = parts[next++]!
        const response = await fetch(part.url, { method: 'PUT', body: bytes.subarray(0, part.size) as unknown as BodyInit })
        if (response.status !== 200) throw new Error(`part ${part.partNumber}: ${response.status}`)
      }
    }))
    const uploadSeconds = (performance.now() - started) / 1000
    const confirmStarted = performance.now()
    const confirm = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${JSON.stringify(confirm.body)}`)
    const confirmSeconds = (performance.now() - confirmStarted) / 1000
    const rssAfterBig = peakRssMb(server.proc.pid!)
    const serviceMbps = TOTAL / MiB / uploadSeconds
    const plainMbps = await plainStreamMbps(bytes)

    const photo = await jpeg(1200, 900)
    const photosStarted = performance.now()
    const results = await Promise.all(Array.from({ length: 200 }, () => uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })))
    const photosSeconds = (performance.now() - photosStarted) / 1000
    const ok = results.filter(r => r.confirm.status === 200).length
    const rssAfterPhotos = peakRssMb(server.proc.pid!)

    writeSection('Uploads through the local driver (issue 3)', `
${table(['measure', 'value', 'target'], [
  ['1 GiB in 10 MiB parts, 4 at a time: service throughput', `${serviceMbps.toFixed(0)} MiB/s`, ''],
  ['same bytes, plain Node file streams, same disk, same run', `${plainMbps.toFixed(0)} MiB/s`, ''],
  ['ratio service / plain', (serviceMbps / plainMbps).toFixed(2), '≥ 0.8'],
  ['confirm of the 1 GiB upload (joins 103 parts, sniffs the head)', `${confirmSeconds.toFixed(1)} s`, ''],
  ['server peak RSS after the 1 GiB upload', `${rssAfterBig} MB`, '< 200 MB'],
  ['200 photos (init + PUT + confirm) at once', `${ok}/200 confirmed in ${photosSeconds.toFixed(1)} s`, 'all'],
  ['server peak RSS after the photos (includes derivation by sharp)', `${rssAfterPhotos} MB`, ''],
])}
`)
    console.log(`service ${serviceMbps.toFixed(0)} MiB/s, plain ${plainMbps.toFixed(0)} MiB/s, ratio ${(serviceMbps / plainMbps).toFixed(2)}, peak RSS ${rssAfterBig} MB; photos ${ok}/200 in ${photosSeconds.toFixed(1)} s, RSS ${rssAfterPhotos} MB`)
  }
  finally {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

await main()
