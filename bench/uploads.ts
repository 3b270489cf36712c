// Upload throughput and memory of the local driver: 1 GiB in 10 MiB parts, 4 at a time,
// against writing the same bytes with a plain Node file stream on the same disk, in turn over three
// rounds; then 200 small photos at once. Run: npm run bench (or npx tsx bench/uploads.ts).
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { api, login } from '../tests/support/http'
import { jpeg, mp4 } from '../tests/support/fixtures'
import { startServer } from '../tests/support/server'
import { uploadFile } from '../tests/support/uploads'
import { freePort } from '../tests/support/ports'
import { peakRssMb, startChild, table, writeSection } from './lib'

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

const ROUNDS = 3

/**
 * The same parts PUT over loopback, by the same client, to a bare node:http server in a process of
 * its own that streams each body to a file: what HTTP itself costs here, with no service around it.
 */
async function bareHttpMbps(part: Buffer): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'))
  const port = await freePort()
  const child = await startChild(join(import.meta.dirname, 'support/put-baseline.ts'), [dir, String(port)], /^listening/)
  try {
    const parts = Math.ceil(TOTAL / PART)
    let next = 1
    const started = performance.now()
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      while (next <= parts) {
        const n = next++
        const response = await fetch(`http://127.0.0.1:${port}/${n}`, { method: 'PUT', body: part.subarray(0, n === parts ? TOTAL - (parts - 1) * PART : PART) as unknown as BodyInit })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`bare PUT ${n}: ${response.status}`)
      }
    }))
    return TOTAL / MiB / ((performance.now() - started) / 1000)
  }
  finally {
    await child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One 1 GiB upload through the service (init, parts 4 at a time, confirm); seconds for each phase. */
async function serviceUpload(base: string, bytes: Buffer): Promise<{ uploadSeconds: number, confirmSeconds: number }> {
  const created = (await api(base, '/api/uploads/init', { method: 'POST', json: { fileName: 'big.mp4', contentType: 'video/mp4', size: TOTAL, durationSec: 60 } })).body
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
  const confirm = await api(base, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${JSON.stringify(confirm.body)}`)
  return { uploadSeconds, confirmSeconds: (performance.now() - confirmStarted) / 1000 }
}

async function main() {
  const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' })
  try {
    const cookie = await login(server.url)
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { maxFileSizeBytes: 2 * TOTAL }, cookie })
    const bytes = mp4(PART)
    // The disk's speed drifts (page cache, writeback of the last GiB): the two are taken in turn.
    const service: number[] = []
    const plain: number[] = []
    const bare: number[] = []
    const confirms: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await plainStreamMbps(bytes))
      bare.push(await bareHttpMbps(bytes))
      const { uploadSeconds, confirmSeconds } = await serviceUpload(server.url, bytes)
      service.push(TOTAL / MiB / uploadSeconds)
      confirms.push(confirmSeconds)
    }
    const rssAfterBig = peakRssMb(server.proc.pid!)
    const harmonic = (values: number[]) => values.length / values.reduce((sum, value) => sum + 1 / value, 0)
    const serviceMbps = harmonic(service)
    const plainMbps = harmonic(plain)
    const bareMbps = harmonic(bare)
    const ratios = service.map((value, index) => value / plain[index]!)

    const photo = await jpeg(1200, 900)
    const photosStarted = performance.now()
    const results = await Promise.all(Array.from({ length: 200 }, () => uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })))
    const photosSeconds = (performance.now() - photosStarted) / 1000
    const ok = results.filter(r => r.confirm.status === 200).length
    const rssAfterPhotos = peakRssMb(server.proc.pid!)

    writeSection('Uploads through the local driver', `
${table(['measure', 'value', 'target'], [
  [`1 GiB in 10 MiB parts, 4 at a time: service throughput (${ROUNDS} rounds)`, `${serviceMbps.toFixed(0)} MiB/s (${service.map(v => v.toFixed(0)).join(', ')})`, ''],
  ['same bytes, plain Node file streams, same disk, taken in turn with the service', `${plainMbps.toFixed(0)} MiB/s (${plain.map(v => v.toFixed(0)).join(', ')})`, ''],
  ['ratio service / plain (each round)', `${(serviceMbps / plainMbps).toFixed(2)} (${ratios.map(v => v.toFixed(2)).join(', ')})`, '≥ 0.8'],
  ['same parts PUT by the same client to a bare node:http server (own process) writing file streams', `${bareMbps.toFixed(0)} MiB/s (${bare.map(v => v.toFixed(0)).join(', ')})`, ''],
  ['ratio service / bare HTTP', (serviceMbps / bareMbps).toFixed(2), ''],
  ['confirm of a 1 GiB upload (joins 103 parts, sniffs the head, syncs the file to disk)', `${(confirms.reduce((a, b) => a + b, 0) / confirms.length).toFixed(1)} s (mean)`, ''],
  ['server peak RSS after the 1 GiB upload', `${rssAfterBig} MB`, '< 200 MB'],
  ['200 photos (init + PUT + confirm) at once', `${ok}/200 confirmed in ${photosSeconds.toFixed(1)} s`, 'all'],
  ['server peak RSS after the photos (includes derivation by sharp)', `${rssAfterPhotos} MB`, ''],
])}
`)
    console.log(`service ${serviceMbps.toFixed(0)} MiB/s, plain ${plainMbps.toFixed(0)} MiB/s, bare HTTP ${bareMbps.toFixed(0)} MiB/s, ratio ${(serviceMbps / plainMbps).toFixed(2)}, peak RSS ${rssAfterBig} MB; photos ${ok}/200 in ${photosSeconds.toFixed(1)} s, RSS ${rssAfterPhotos} MB`)
  }
  finally {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

await main()
