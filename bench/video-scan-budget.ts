// What a confirm's location scan costs the storage: the storage requests and the time
// of the scan-and-blank step of a confirm for a normal 60 MiB video (moov and position at the end),
// an 800 KB MP4 of 99,000 empty top-level boxes and a WebM of 60,000 Void elements, on the local
// disk (`stripVideoLocationInFile`: its reads of the file counted) and on s3rver (what confirm's
// `promoteStagedVideo` sends: HEAD, scan by ranged GETs, the copy staging → final, the delete of the
// staged object; every request s3rver receives counted). Needs ffmpeg.
// Run: npx tsx bench/video-scan-budget.ts [--save <file.json>] [--before <file.json>] [--only <label start>]
// `--save` keeps this run's numbers (say, on the code before a change); `--before` puts such a
// saved run next to this one in bench/RESULTS.md.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { fileHandleReader, stripVideoLocationInFile } from '../server/utils/storage/local/video-location'
import { stripVideoLocationInS3 } from '../server/utils/storage/s3/video-location'
import { scanVideoLocation } from '../shared/media/video-location'
import { manyBoxesMp4, manyVoidsWebm } from '../tests/support/crafted-videos'
import { makeLargeVideo } from '../tests/support/location-videos'
import { S3_BUCKET, serviceS3Client, startS3 } from '../tests/support/s3'
import { table, writeSection } from './lib'

const MiB = 1024 * 1024
const argument = (name: string) => {
  const index = process.argv.indexOf(name)
  return index > 0 ? process.argv[index + 1] : undefined
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

interface Measure {
  requests: number
  seconds: number
  outcome: string
}
type Results = Record<string, { local: Measure, s3: Measure }>

// `--only <start of a label>` measures that case alone; `--save` then updates it in the saved file.
const only = argument('--only')
const dir = mkdtempSync(join(tmpdir(), 'bench-video-scan-'))
const results: Results = {}
try {
  console.log('making the files…')
  writeFileSync(join(dir, 'boxes.mp4'), manyBoxesMp4(99_000))
  writeFileSync(join(dir, 'voids.webm'), manyVoidsWebm(60_000))
  const normal = makeLargeVideo(join(dir, 'normal.mp4'), 60)
  const cases = [
    { label: `normal video, ${(statSync(normal.file).size / MiB).toFixed(0)} MiB, moov at the end`, file: normal.file, contentType: 'video/mp4', rounds: 5 },
    // One round: before the budgets, one took minutes on s3rver.
    { label: `MP4 of 99,000 empty top-level boxes, ${Math.round(statSync(join(dir, 'boxes.mp4')).size / 1000)} KB`, file: join(dir, 'boxes.mp4'), contentType: 'video/mp4', rounds: 1 },
    { label: `WebM of 60,000 Void elements, ${Math.round(statSync(join(dir, 'voids.webm')).size / 1000)} KB`, file: join(dir, 'voids.webm'), contentType: 'video/webm', rounds: 1 },
  ]

  const s3 = await startS3()
  const client = serviceS3Client(s3)
  try {
    for (const { label, file, contentType, rounds } of cases) {
      if (only && !label.startsWith(only)) continue
      // Local disk: the reads the scan makes of the file, then the time of the whole strip (scan, write, fsync).
      const stored = join(dir, 'stored')
      copyFileSync(file, stored)
      let reads = 0
      const handle = await open(stored)
      const size = statSync(stored).size
      const read = fileHandleReader(handle)
      await scanVideoLocation(async (start, end) => {
        reads++
        return read(start, end)
      }, size, { container: contentType === 'video/webm' ? 'matroska' : 'mp4' }).finally(() => handle.close())
      const localTimes: number[] = []
      let local!: Awaited<ReturnType<typeof stripVideoLocationInFile>>
      for (let round = 0; round < rounds; round++) {
        copyFileSync(file, stored)
        const started = performance.now()
        local = await stripVideoLocationInFile(stored, contentType)
        localTimes.push((performance.now() - started) / 1000)
      }
      const localSeconds = median(localTimes)
      console.log(`${label}, local: ${reads} reads, ${localSeconds.toFixed(2)} s, ${local.ok ? `ok, ${local.removed.length} removed` : local.reason}`)

      // s3rver: what promoteStagedVideo sends, counted at the storage.
      const s3Times: number[] = []
      let requests = 0
      let remote!: Awaited<ReturnType<typeof stripVideoLocationInS3>>
      for (let round = 0; round < rounds; round++) {
        await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video', Body: readFileSync(file), ContentType: contentType }), { requestTimeout: 600_000 })
        s3.requests.length = 0
        const started = performance.now()
        const head = await client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video' }))
        remote = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, {
          sourceKey: 'staging/video', destinationKey: 'videos/video', size: head.ContentLength!, contentType, etag: head.ETag,
        })
        if (remote.ok) await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video' }))
        s3Times.push((performance.now() - started) / 1000)
        requests = s3.requests.length
        await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: 'videos/video' }))
        await client.send(new DeleteObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/video' }))
      }
      const s3Seconds = median(s3Times)
      console.log(`${label}, s3rver: ${requests} requests, ${s3Seconds.toFixed(2)} s, ${remote.ok ? `ok, ${remote.method}` : remote.reason}`)
      results[label.split(', ')[0]!] = {
        local: { requests: reads, seconds: localSeconds, outcome: local.ok ? 'kept' : `refused (${local.reason})` },
        s3: { requests, seconds: s3Seconds, outcome: remote.ok ? 'kept' : `refused (${remote.reason})` },
      }
    }
  }
  finally {
    await s3.stop()
    rmSync(s3.directory, { recursive: true, force: true })
  }

  const save = argument('--save')
  if (save) {
    const saved = only && existsSync(save) ? JSON.parse(readFileSync(save, 'utf8')) as { results: Results } : { results: {} }
    writeFileSync(save, JSON.stringify({ cases: cases.map(c => c.label), results: { ...saved.results, ...results } }, null, 2))
  }
  const beforeFile = argument('--before')
  if (beforeFile) {
    const before = JSON.parse(readFileSync(beforeFile, 'utf8')) as { results: Results }
    const cell = (m: Measure | undefined, unit: string) => (m ? `${m.requests} ${unit}, ${m.seconds < 1 ? `${Math.round(m.seconds * 1000)} ms` : `${m.seconds.toFixed(1)} s`}, ${m.outcome}` : '–')
    const rows: string[][] = []
    for (const { label } of cases) {
      const key = label.split(', ')[0]!
      rows.push([label, 'local disk', cell(before.results[key]?.local, 'reads'), cell(results[key]?.local, 'reads')])
      rows.push([label, 's3rver', cell(before.results[key]?.s3, 'requests'), cell(results[key]?.s3, 'requests')])
    }
    writeSection('Storage requests of a confirm\'s location scan', `
Run: \`npx tsx bench/video-scan-budget.ts --save before.json\` on the code before the change, then
\`npx tsx bench/video-scan-budget.ts --before before.json\` on this one. Files built by the bench (ffmpeg's noise video
with its moov and position at the end; \`manyBoxesMp4\` and \`manyVoidsWebm\` of tests/support/crafted-videos.ts). "Local
disk": the reads the scan makes of the file, and the time of \`stripVideoLocationInFile\` (scan, patches written, fsync).
"s3rver": every request s3rver received while the bench did what confirm's \`promoteStagedVideo\` does (HEAD of the staged
object, the scan by ranged GETs, the copy staging → final, the delete of the staged object), and its time. s3rver runs
in the bench's process, on this shared 2-core machine; confirm itself adds a HEAD and a ranged GET (the sniff) of the
final object. Times: the median of 5 rounds for the normal video, one round for the others (before the budgets, one
took minutes on s3rver); the normal video's time is mostly the patched copy, and varies with the machine's load. A
whole confirm on s3rver is counted by tests/e2e/video-scan-budget.test.ts (at most 20 requests): 13 for a 22 MiB video
with its position at the end, 7 for each hostile file.

${table(['file', 'storage', 'before', 'after'], rows)}
`)
  }
}
finally {
  rmSync(dir, { recursive: true, force: true })
}
