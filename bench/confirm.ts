// Confirm latency: how long `POST /api/uploads/:id/confirm` takes for a 1 MiB and a
// 50 MiB single PUT and a 1 GiB multipart upload, on the local disk and on s3rver, now that confirm
// moves a single PUT out of staging (local: a rename; S3: a server-side CopyObject, then a delete).
// `--before <path to an older build's .output/server/index.mjs>` measures that build too, side by
// side. Run: npm run bench -- confirm (or npx tsx bench/confirm.ts [--before …]).
import { api, login } from '../tests/support/http'
import { mp4 } from '../tests/support/fixtures'
import { startS3, type TestS3 } from '../tests/support/s3'
import { SERVER_ENTRY, startServer } from '../tests/support/server'
import { putBytes, sendParts } from '../tests/support/uploads'
import { percentile, table, writeSection } from './lib'

const MiB = 1024 * 1024
const CASES = [
  { label: '1 MiB single PUT', size: MiB, rounds: 5 },
  { label: '50 MiB single PUT', size: 50 * MiB, rounds: 3 },
  { label: '1 GiB multipart (103 parts)', size: 1024 * MiB, rounds: 1 },
] as const
const DRIVERS = ['local', 's3'] as const

const beforeIndex = process.argv.indexOf('--before')
const beforeEntry = beforeIndex > 0 ? process.argv[beforeIndex + 1] : undefined

const failures = new Map<string, string>()

async function measure(entry: string, driver: typeof DRIVERS[number]): Promise<Map<string, number[]>> {
  failures.clear()
  let s3: TestS3 | undefined
  if (driver === 's3') s3 = await startS3()
  const server = await startServer({ ...s3?.env, RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000' }, undefined, entry)
  const results = new Map<string, number[]>()
  try {
    const cookie = await login(server.url)
    await api(server.url, '/api/admin/event', { method: 'PATCH', cookie, json: { maxFileSizeBytes: 2048 * MiB } })
    for (const { label, size, rounds } of CASES) {
      const bytes = mp4(size)
      const times: number[] = []
      for (let round = 0; round < rounds; round++) {
        const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size, durationSec: 10 } })
        if (init.status !== 201) throw new Error(`init ${init.status}: ${JSON.stringify(init.body)}`)
        if (init.body.upload.type === 'single') {
          const put = await putBytes(init.body.upload.url, bytes, init.body.upload.headers)
          if (put.status !== 200) throw new Error(`PUT ${put.status}`)
        }
        else {
          await sendParts(init.body, bytes)
        }
        const started = performance.now()
        const confirm = await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
        times.push(performance.now() - started)
        if (confirm.status !== 200) {
          // s3rver joins 1 GiB of parts slower than the SDK's 10 s request timeout: say so in the table.
          console.log(`confirm ${confirm.status}: ${confirm.body?.message ?? ''}`)
          failures.set(label, `${confirm.status} ${confirm.body?.data?.code ?? ''} after ${(performance.now() - started).toFixed(0)} ms`)
        }
      }
      results.set(label, times)
      console.log(`${entry === SERVER_ENTRY ? 'after' : 'before'} ${driver} ${label}: ${times.map(t => t.toFixed(0)).join(', ')} ms`)
    }
  }
  finally {
    await server.stop()
    await s3?.stop()
  }
  return results
}

const median = (values: number[] | undefined) => (values?.length ? `${percentile(values, 50).toFixed(0)} ms` : '–')

const rows: (string | number)[][] = []
for (const driver of DRIVERS) {
  const before = beforeEntry ? await measure(beforeEntry, driver) : new Map<string, number[]>()
  const failedBefore = new Map(failures)
  const after = await measure(SERVER_ENTRY, driver)
  for (const { label, rounds } of CASES) {
    rows.push([label, driver, rounds, failedBefore.get(label) ?? median(before.get(label)), failures.get(label) ?? median(after.get(label))])
  }
}

writeSection('Confirm latency', [
  'Run: `npx tsx bench/confirm.ts --before <previous build>`. Each upload is sent in full (one PUT, or 10 MiB parts one',
  'after another), then only `POST /api/uploads/:id/confirm` is timed, over loopback against the built server (median',
  'of the rounds). "Before": the build where a single PUT wrote straight to its served key; "after": this build, where',
  'confirm first moves it out of `staging/` (local: one rename; S3: a server-side CopyObject, then a delete). A',
  'multipart upload completes at its served key in both. s3rver runs in the benchmark\'s process; a real S3 copies',
  'inside the bucket at a rate that does not depend on this machine.',
  '',
  table(['upload', 'driver', 'rounds', 'confirm before', 'confirm after'], rows),
].join('\n'))
