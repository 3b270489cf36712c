// What blanking a video's position costs at confirm: a 50 MiB and a 1 GiB H.264 MP4
// with the moov (and the position) at the end, on the local disk (scan, write in place, fsync) and
// on s3rver in a process of its own (scan by ranged GETs, then the staging-to-final copy with the
// patch: UploadPartCopy, and the streamed fallback of a storage without it), next to a plain
// CopyObject of the same object, the move confirm makes anyway. Run: npx tsx --tsconfig .nuxt/tsconfig.server.json bench/video-location.ts
// (it needs ffmpeg; `--quick` skips the 1 GiB streamed fallback, which takes minutes on s3rver).
import { copyFileSync, createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CopyObjectCommand, DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { stripVideoLocationInFile } from '../server/utils/storage/local/video-location'
import { s3ObjectReader, stripVideoLocationInS3, type PatchedCopyMethod } from '../server/utils/storage/s3/video-location'
import { scanVideoLocation } from '../shared/media/video-location'
import { makeLargeVideo, type LocationVideo } from '../tests/support/location-videos'
import { S3_BUCKET, serviceS3Client, type TestS3 } from '../tests/support/s3'
import { startChild, table, writeSection } from './lib'

const MiB = 1024 * 1024
const quick = process.argv.includes('--quick')

interface Timing {
  seconds: number[]
  peakRssMb: number
}

/** Runs `work` and answers its duration and this process's highest RSS meanwhile. */
async function timed(work: () => Promise<unknown>): Promise<{ seconds: number, peakRssMb: number }> {
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  const started = performance.now()
  try {
    await work()
  }
  finally {
    clearInterval(sampler)
  }
  return { seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / MiB) }
}

async function rounds(count: number, prepare: () => Promise<void>, work: () => Promise<unknown>): Promise<Timing> {
  const result: Timing = { seconds: [], peakRssMb: 0 }
  for (let i = 0; i < count; i++) {
    await prepare()
    const { seconds, peakRssMb } = await timed(work)
    result.seconds.push(seconds)
    result.peakRssMb = Math.max(result.peakRssMb, peakRssMb)
  }
  return result
}

const show = (timing: Timing) => {
  const sorted = [...timing.seconds].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  const format = (s: number) => (s < 1 ? `${Math.round(s * 1000)} ms` : `${s.toFixed(2)} s`)
  return `${format(median)} (${timing.seconds.map(format).join(', ')})`
}

async function localDriver(video: LocationVideo, dir: string, count: number): Promise<Timing> {
  const stored = join(dir, 'stored.mp4')
  return rounds(count, async () => {
    copyFileSync(video.file, stored)
    // Confirm finds the upload already on the disk (the local driver syncs it): so does the bench.
    const handle = await open(stored, 'r+')
    await handle.sync()
    await handle.close()
  }, async () => {
    const result = await stripVideoLocationInFile(stored, video.contentType)
    if (!result.ok || !result.patches.length) throw new Error('nothing stripped')
  })
}

async function startStorage(args: string[]): Promise<{ s3: TestS3, client: S3Client, stop: () => Promise<void> }> {
  const child = await startChild(join(import.meta.dirname, 'support/s3rver.ts'), args, /^ready /)
  const s3 = JSON.parse(child.ready.slice('ready '.length)) as TestS3
  return {
    s3,
    client: serviceS3Client(s3),
    stop: async () => {
      await child.stop()
      rmSync(s3.directory, { recursive: true, force: true })
    },
  }
}

/** The scan alone by ranged GETs, and how many GETs it made. */
async function s3Scan(client: S3Client, video: LocationVideo, count: number): Promise<{ scan: Timing, gets: number }> {
  let gets = 0
  const reader = s3ObjectReader({ client, bucket: S3_BUCKET }, 'staging/video.mp4')
  const counting = (start: number, end: number) => {
    gets++
    return reader(start, end)
  }
  const size = statSync(video.file).size
  const scan = await rounds(count, async () => {
    gets = 0
  }, async () => {
    const result = await scanVideoLocation(counting, size, { container: 'mp4' })
    if (!result.ok || !result.patches.length) throw new Error('nothing found')
  })
  return { scan, gets }
}

async function s3Driver(client: S3Client, video: LocationVideo, count: number, expected: PatchedCopyMethod): Promise<{ strip: Timing, move: Timing, scan: Timing, gets: number }> {
  const size = statSync(video.file).size
  // The guest's upload, not measured; the client's 10 s are for the service's own requests.
  await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video.mp4', Body: createReadStream(video.file), ContentLength: size, ContentType: video.contentType }), { requestTimeout: 600_000 })
  const clear = async () => {
    await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: 'videos/video.mp4' }))
  }
  const { scan, gets } = await s3Scan(client, video, count)
  const move = await rounds(count, clear, () => client.send(new CopyObjectCommand({ Bucket: S3_BUCKET, Key: 'videos/video.mp4', CopySource: `${S3_BUCKET}/staging/video.mp4` }), { requestTimeout: 120_000 }))
  const strip = await rounds(count, clear, async () => {
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { sourceKey: 'staging/video.mp4', destinationKey: 'videos/video.mp4', size, contentType: video.contentType })
    if (!result.ok || result.method !== expected) throw new Error(`expected ${expected}, got ${JSON.stringify(result.ok ? result.method : result)}`)
  })
  await clear()
  await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video.mp4' }))
  return { strip, move, scan, gets }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-video-location-'))
try {
  console.log('making the videos (ffmpeg)…')
  const videos = [
    { label: '50 MiB', video: makeLargeVideo(join(dir, '50.mp4'), 50), rounds: 5 },
    { label: '1 GiB', video: makeLargeVideo(join(dir, '1024.mp4'), 1024), rounds: 3 },
  ]
  const rows: (string | number)[][] = []
  const sizes = videos.map(({ label, video }) => `${label}: ${(statSync(video.file).size / MiB).toFixed(1)} MiB`)

  for (const { label, video, rounds: count } of videos) {
    console.log(`local driver, ${label}…`)
    const local = await localDriver(video, dir, count)
    rows.push([`local driver, ${label}`, 'scan + write in place + fsync', show(local), '–', `${local.peakRssMb} MB`])
  }

  const copying = await startStorage([])
  try {
    for (const { label, video, rounds: count } of videos) {
      console.log(`s3rver with UploadPartCopy, ${label}…`)
      const { strip, move, scan, gets } = await s3Driver(copying.client, video, count, 'part-copy')
      rows.push([`s3rver, ${label}`, `the scan alone: ${gets} ranged GETs`, show(scan), '–', `${scan.peakRssMb} MB`])
      rows.push([`s3rver, ${label}`, 'scan + patched part copy staging → final', show(strip), show(move), `${strip.peakRssMb} MB`])
    }
  }
  finally {
    await copying.stop()
  }

  const streaming = await startStorage(['--no-upload-part-copy'])
  try {
    for (const { label, video, rounds: count } of videos) {
      if (quick && label === '1 GiB') continue
      console.log(`s3rver without UploadPartCopy, ${label}…`)
      const { strip, move } = await s3Driver(streaming.client, video, label === '1 GiB' ? 1 : count, 'streamed')
      rows.push([`s3rver without UploadPartCopy, ${label}`, 'scan + streamed through the patch staging → final', show(strip), show(move), `${strip.peakRssMb} MB`])
    }
  }
  finally {
    await streaming.stop()
  }

  writeSection('Video location stripping', `
Run: \`npx tsx bench/video-location.ts\`. H.264 MP4s of lossless noise made by ffmpeg (${sizes.join(', ')}), the moov
and its 3GPP \`loci\` (the position) after the media data, as ffmpeg and most phones write them. Times are for the
server-side functions confirm will call: \`stripVideoLocationInFile\` (scan by ranged reads, the one 35-byte box written
in place, fsync; the upload is already synced, as confirm finds it) and \`stripVideoLocationInS3\` (scan by ranged GETs,
then the object rebuilt at its final key: untouched ranges by UploadPartCopy inside the storage, the last few KB
uploaded patched; or, on a storage without UploadPartCopy, the whole object streamed through the patch in 8 MiB parts).
"Plain move" is a CopyObject staging → final of the same object, the copy confirm makes anyway once uploads land on a
staging key: the patched copy replaces it. s3rver runs in a process of its own on this shared 2-core machine and copies
through its own disk and MD5, so its numbers say more about s3rver than about S3. Median (each round). Peak RSS is the
bench process's (the server's side of the work; the local rows show its floor): the part copy holds one uploaded part of
at most 16 MiB, the streamed way two 8 MiB parts and the SDK's socket buffers. On real S3 an UploadPartCopy runs inside
the storage, in parallel per part, without s3rver's second pass (its completion concatenates the parts into a new file
and hashes it again): there the patched copy should cost about what the plain move does.

${table(['what', 'how', 'time', 'plain move (CopyObject)', 'peak RSS'], rows)}
`)
  console.log(rows.map(row => row.join(' | ')).join('\n'))
}
finally {
  rmSync(dir, { recursive: true, force: true })
}
