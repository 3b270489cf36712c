import { copyFileSync, createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyPatches, scanVideoLocation, type BytePatch } from '../../shared/media/video-location'
import { fileHandleReader, stripVideoLocationInFile } from '../../server/utils/storage/local/video-location'
import { copyS3ObjectWithPatches, stripVideoLocationInS3, type PatchedCopyOptions } from '../../server/utils/storage/s3/video-location'
import { S3_PART_LIMITS, type PlannedPart } from '../../server/utils/storage/s3/part-plan'
import { locationTags, makeLargeVideo, makeLocationVideos, packetHashes, POSITION, probe, type LocationVideo } from '../support/location-videos'
import { S3_BUCKET, serviceS3Client, startS3, type TestS3 } from '../support/s3'

// Real videos with a position (ffmpeg, exiftool), stripped by the server's functions on the local
// disk and on s3rver, then read back as a downloader would: exiftool, ffprobe, and the bytes.

const KiB = 1024
/** Parts small enough that a video of tens of KB goes through every branch of the part copy. */
const TINY_PARTS: PatchedCopyOptions = { smallObjectLimit: 0, limits: { minPart: 8 * KiB, maxCopyPart: 24 * KiB, maxUploadPart: 16 * KiB }, streamPartSize: 8 * KiB }

/** Where each fixture says where it was (see makeLocationVideos). */
const EXPECTED: Record<string, string[]> = {
  'moov-last.mp4': ['/moov/udta/loci'],
  'moov-first.mp4': ['/moov/udta/loci'],
  'xyz.mov': ['/moov/udta/\u00A9xyz'],
  'apple.mov': ['/moov/udta/meta/keys[com.apple.quicktime.location.ISO6709]', '/moov/udta/meta/ilst/#2'],
  'every-place.mp4': [
    '/moov/udta/meta/ilst/\u00A9xyz', '/moov/udta/loci', '/moov/udta/\u00A9xyz',
    '/moov/meta/keys[com.apple.quicktime.location.ISO6709]', '/moov/meta/ilst/#1', '/uuid(XMP)',
  ],
  'xmp.mov': ['/moov/udta/XMP_(XMP)'],
  'tagged.webm': ['/Segment/Tags/Tag/SimpleTag[LOCATION]'],
  'large-moov.mp4': ['/moov/udta/loci'],
}
const NAMES = Object.keys(EXPECTED)

let dir: string
let videos: Record<string, LocationVideo>

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'video-location-'))
  videos = makeLocationVideos(dir)
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a downloader of `cleaned` finds, compared with the `original` the guest sent. */
function expectClean(original: string, cleaned: string, patches: BytePatch[]) {
  expect(locationTags(original).length).toBeGreaterThan(0)
  expect(locationTags(cleaned)).toEqual([])
  const before = readFileSync(original)
  const after = readFileSync(cleaned)
  expect(after.length).toBe(before.length)
  // Only the blanked boxes differ: the original with the patches written over it, byte for byte.
  const expected = Buffer.from(before)
  applyPatches(expected, 0, patches)
  expect(after.equals(expected)).toBe(true)
  expect(patches.reduce((n, patch) => n + patch.bytes.length, 0)).toBeLessThan(5000)
  for (const text of [POSITION, '23.5505', '046.6333', '-46.6333']) expect(after.indexOf(text)).toBe(-1)
  expect(probe(cleaned)).toEqual(probe(original))
  expect(packetHashes(cleaned)).toBe(packetHashes(original))
}

function expectS3PartRules(parts: PlannedPart[], minPart: number) {
  parts.slice(0, -1).forEach(part => expect(part.end - part.start).toBeGreaterThanOrEqual(minPart))
}

describe('stripVideoLocationInFile: the local driver blanks the position in place', () => {
  it.each(NAMES)('%s: exiftool finds no position, ffprobe the same streams, only the blanked boxes changed', async (name) => {
    const { file, contentType } = videos[name]!
    const stored = join(dir, `local-${name}`)
    copyFileSync(file, stored)
    const result = await stripVideoLocationInFile(stored, contentType)
    expect(result).toMatchObject({ ok: true, removed: EXPECTED[name] })
    expectClean(file, stored, result.ok ? result.patches : [])
    // A second pass finds nothing left to do, and reads the same length from the bytes.
    expect(await stripVideoLocationInFile(stored, contentType)).toEqual({ ok: true, removed: [], patches: [], durationSec: result.ok ? result.durationSec : undefined, videoCodec: result.ok ? result.videoCodec : undefined })
  })

  it('reads the 1.5 MB moov in slices of 64 KiB as well as in 1 MiB ones, fetching under 256 KiB of it', async () => {
    const { file } = videos['large-moov.mp4']!
    const handle = await open(file)
    try {
      const { size } = await handle.stat()
      const sliced = await scanVideoLocation(fileHandleReader(handle), size, { sliceSize: 64 * KiB })
      expect(sliced).toEqual(await scanVideoLocation(fileHandleReader(handle), size))
      // Only the slices holding the headers walked into are fetched: far less than the moov.
      expect(await scanVideoLocation(fileHandleReader(handle), size, { sliceSize: 64 * KiB, maxMetadataBytes: 256 * KiB })).toEqual(sliced)
    }
    finally {
      await handle.close()
    }
  })

  it('refuses an MP4 without moov (no-moov) and leaves the file untouched', async () => {
    const stored = join(dir, 'no-moov.mp4')
    const bytes = readFileSync(videos['moov-last.mp4']!.file)
    // Cut before the moov: the media data is all there is.
    const moov = bytes.indexOf('moov') - 4
    writeFileSync(stored, bytes.subarray(0, moov))
    expect(await stripVideoLocationInFile(stored, 'video/mp4')).toEqual({ ok: false, reason: 'no-moov' })
    expect(readFileSync(stored).equals(bytes.subarray(0, moov))).toBe(true)
  })
})

/** The storage's folder goes too: the videos stored in it weigh a few hundred MB. */
async function stopAndRemove(s3: TestS3) {
  await s3.stop()
  rmSync(s3.directory, { recursive: true, force: true })
}

async function download(client: S3Client, key: string, to: string): Promise<string> {
  const object = await client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }))
  writeFileSync(to, await object.Body!.transformToByteArray())
  return to
}

async function upload(client: S3Client, key: string, file: string, contentType: string) {
  // As a guest's upload would; the client's 10 s are for the service's own requests.
  await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: key, Body: createReadStream(file), ContentLength: statSync(file).size, ContentType: contentType }), { requestTimeout: 120_000 })
}

async function openUploads(client: S3Client): Promise<number> {
  const list = await client.send(new ListMultipartUploadsCommand({ Bucket: S3_BUCKET }))
  return list.Uploads?.length ?? 0
}

describe('stripVideoLocationInS3: s3rver with UploadPartCopy', () => {
  let s3: TestS3
  let client: S3Client
  beforeAll(async () => {
    s3 = await startS3()
    client = serviceS3Client(s3)
  })
  afterAll(() => stopAndRemove(s3))

  it.each(NAMES)('%s: moved from staging to its final key in one patched part copy, clean', async (name) => {
    const { file, contentType } = videos[name]!
    await upload(client, `staging/${name}`, file, contentType)
    const head = await client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: `staging/${name}` }))
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, {
      sourceKey: `staging/${name}`, destinationKey: `videos/${name}`, size: head.ContentLength!, contentType, etag: head.ETag,
    }, TINY_PARTS)
    expect(result).toMatchObject({ ok: true, removed: EXPECTED[name], method: 'part-copy' })
    expectClean(file, await download(client, `videos/${name}`, join(dir, `s3-${name}`)), result.ok ? result.patches : [])
    const stored = await client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: `videos/${name}` }))
    expect(stored.ContentType).toBe(contentType)
    // The staged original is the caller's to delete, untouched until then.
    expect(readFileSync(await download(client, `staging/${name}`, join(dir, `s3-staged-${name}`))).equals(readFileSync(file))).toBe(true)
    expect(await openUploads(client)).toBe(0)
  })

  it('reads, patches and puts back a video under 10 MiB whole, in place', async () => {
    const { file, contentType } = videos['apple.mov']!
    await upload(client, 'in-place/apple.mov', file, contentType)
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { sourceKey: 'in-place/apple.mov', size: statSync(file).size, contentType })
    expect(result).toMatchObject({ ok: true, method: 'put' })
    expectClean(file, await download(client, 'in-place/apple.mov', join(dir, 's3-in-place.mov')), result.ok ? result.patches : [])
  })

  it('moves a video without a position with one CopyObject, and leaves it alone in place', async () => {
    const clip = join(import.meta.dirname, '../fixtures/clip-2s.mp4')
    await upload(client, 'staging/clip.mp4', clip, 'video/mp4')
    const video = { sourceKey: 'staging/clip.mp4', size: statSync(clip).size, contentType: 'video/mp4' }
    expect(await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, video)).toEqual({ ok: true, removed: [], patches: [], method: 'none', durationSec: 2, videoCodec: 'h264' })
    expect(await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { ...video, destinationKey: 'videos/clip.mp4' })).toEqual({ ok: true, removed: [], patches: [], method: 'copy-object', durationSec: 2, videoCodec: 'h264' })
    expect(readFileSync(await download(client, 'videos/clip.mp4', join(dir, 's3-clip.mp4'))).equals(readFileSync(clip))).toBe(true)
  })

  it('refuses an MP4 without moov and writes nothing at the destination', async () => {
    await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: 'staging/fake.mp4', Body: '<html>not a video</html>', ContentType: 'video/mp4' }))
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { sourceKey: 'staging/fake.mp4', destinationKey: 'videos/fake.mp4', size: 24, contentType: 'video/mp4' })
    expect(result).toEqual({ ok: false, reason: 'no-moov' })
    await expect(client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: 'videos/fake.mp4' }))).rejects.toMatchObject({ name: 'NotFound' })
  })

  it('fails without leaving a multipart upload behind when the source changed since its HEAD', async () => {
    const { file, contentType } = videos['xyz.mov']!
    await upload(client, 'staging/changed.mov', file, contentType)
    const patches = [{ offset: 100, bytes: new Uint8Array(8) }]
    await expect(copyS3ObjectWithPatches({ client, bucket: S3_BUCKET }, {
      sourceKey: 'staging/changed.mov', destinationKey: 'videos/changed.mov', size: statSync(file).size, patches, contentType, etag: '"0123456789abcdef0123456789abcdef"',
    }, TINY_PARTS)).rejects.toMatchObject({ name: 'PreconditionFailed' })
    expect(await openUploads(client)).toBe(0)
    await expect(client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: 'videos/changed.mov' }))).rejects.toMatchObject({ name: 'NotFound' })
  })
})

describe('stripVideoLocationInS3: a storage that answers NotImplemented to UploadPartCopy', () => {
  let s3: TestS3
  let client: S3Client
  beforeAll(async () => {
    s3 = await startS3(undefined, { uploadPartCopy: false })
    client = serviceS3Client(s3)
  })
  afterAll(() => stopAndRemove(s3))

  it.each(['moov-last.mp4', 'apple.mov', 'tagged.webm'])('%s: streamed through the patch instead, clean, no upload left open', async (name) => {
    const { file, contentType } = videos[name]!
    await upload(client, `staging/${name}`, file, contentType)
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { sourceKey: `staging/${name}`, destinationKey: `videos/${name}`, size: statSync(file).size, contentType }, TINY_PARTS)
    expect(result).toMatchObject({ ok: true, removed: EXPECTED[name], method: 'streamed' })
    expectClean(file, await download(client, `videos/${name}`, join(dir, `streamed-${name}`)), result.ok ? result.patches : [])
    expect(await openUploads(client)).toBe(0)
  })
})

describe('a video over 50 MiB with its moov at the end', () => {
  let large: LocationVideo
  let original: Buffer
  let withUploadPartCopy: TestS3
  let withoutUploadPartCopy: TestS3
  beforeAll(async () => {
    large = makeLargeVideo(join(dir, 'large.mp4'), 56)
    original = readFileSync(large.file)
    expect(original.length).toBeGreaterThan(50 * 1024 * KiB)
    withUploadPartCopy = await startS3()
    withoutUploadPartCopy = await startS3(undefined, { uploadPartCopy: false })
  }, 180_000)
  afterAll(async () => {
    await stopAndRemove(withUploadPartCopy)
    await stopAndRemove(withoutUploadPartCopy)
  })

  it('is stripped in place on the local disk', async () => {
    const stored = join(dir, 'local-large.mp4')
    copyFileSync(large.file, stored)
    const result = await stripVideoLocationInFile(stored, large.contentType)
    expect(result).toMatchObject({ ok: true, removed: ['/moov/udta/loci'] })
    expectClean(large.file, stored, result.ok ? result.patches : [])
  }, 120_000)

  it('is rebuilt on S3 from copied parts of at least 5 MiB and one uploaded part', async () => {
    const client = serviceS3Client(withUploadPartCopy)
    await upload(client, 'staging/large.mp4', large.file, large.contentType)
    const handle = await open(large.file)
    const scan = await scanVideoLocation(fileHandleReader(handle), original.length).finally(() => handle.close())
    if (!scan.ok) throw new Error(scan.reason)
    const result = await copyS3ObjectWithPatches({ client, bucket: S3_BUCKET }, {
      sourceKey: 'staging/large.mp4', destinationKey: 'videos/large.mp4', size: original.length, patches: scan.patches, contentType: large.contentType,
    })
    expect(result.method).toBe('part-copy')
    expect(result.parts.map(part => part.kind)).toEqual(['copy', 'upload'])
    expectS3PartRules(result.parts, S3_PART_LIMITS.minPart)
    expectClean(large.file, await download(client, 'videos/large.mp4', join(dir, 's3-large.mp4')), scan.patches)
  }, 120_000)

  it('is streamed through the patch in 8 MiB parts when UploadPartCopy is not there', async () => {
    const client = serviceS3Client(withoutUploadPartCopy)
    await upload(client, 'staging/large.mp4', large.file, large.contentType)
    const result = await stripVideoLocationInS3({ client, bucket: S3_BUCKET }, { sourceKey: 'staging/large.mp4', destinationKey: 'videos/large.mp4', size: original.length, contentType: large.contentType })
    expect(result).toMatchObject({ ok: true, removed: ['/moov/udta/loci'], method: 'streamed' })
    expectClean(large.file, await download(client, 'videos/large.mp4', join(dir, 'streamed-large.mp4')), result.ok ? result.patches : [])
    expect(await openUploads(client)).toBe(0)
  }, 120_000)
})
