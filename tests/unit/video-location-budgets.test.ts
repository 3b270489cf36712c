import { describe, expect, it } from 'vitest'
import { blobReader, type ByteReader } from '../../shared/media/mp4-duration'
import { LOCATION_SCAN_LIMITS, scanVideoLocation, type LocationScanOptions } from '../../shared/media/video-location'
import { ReadBudgetExceeded, windowedReader } from '../../shared/media/windowed-reader'
import { box, deepTagsWebm, ftyp, manyBoxesMp4, manyVoidsWebm, mvhd, u32, text } from '../support/crafted-videos'

// What one scan may cost: reads of the file (ranged GETs on S3), headers, nesting. The hostile
// files are the ones tests/e2e/video-scan-budget.test.ts sends; the large ones are virtual (headers made up as they are read),
// so that a 4 GiB file costs the test nothing.

const MiB = 1024 * 1024

function counted(read: ByteReader) {
  const reads: [number, number][] = []
  return {
    reads,
    read: (async (start, end) => {
      reads.push([start, end])
      return read(start, end)
    }) as ByteReader,
  }
}

function memory(bytes: Uint8Array) {
  return counted(blobReader(new Blob([bytes as Uint8Array<ArrayBuffer>])))
}

/** A file of `prefix` then top-level boxes of the given sizes: only their 8-byte headers hold anything. */
function virtualMp4(prefix: Uint8Array, boxes: { type: string, size: number }[]) {
  const headers: { at: number, bytes: Uint8Array }[] = []
  let size = prefix.length
  for (const { type, size: length } of boxes) {
    headers.push({ at: size, bytes: new Uint8Array(Buffer.concat([u32(length), text(type)])) })
    size += length
  }
  return {
    size,
    ...counted(async (start, end) => {
      const out = new Uint8Array(Math.min(end, size) - start)
      if (start < prefix.length) out.set(prefix.subarray(start, Math.min(end, prefix.length)))
      for (const header of headers) {
        if (header.at + 8 <= start || header.at >= end) continue
        const from = Math.max(start, header.at)
        out.set(header.bytes.subarray(from - header.at, Math.min(end, header.at + 8) - header.at), from - start)
      }
      return out
    }),
  }
}

describe('windowedReader', () => {
  it('reads a small file whole once and answers every later read from it', async () => {
    const bytes = new Uint8Array(1000).map((_, i) => i % 251)
    const { read, reads } = memory(bytes)
    const windowed = windowedReader(read, bytes.length)
    expect(await windowed(10, 20)).toEqual(bytes.subarray(10, 20))
    expect(await windowed(990, 2000)).toEqual(bytes.subarray(990))
    expect(reads).toEqual([[0, 1000]])
    expect(windowed.reads).toBe(1)
  })

  it('grows its window while the reads walk forward in small steps, and starts again small after a long jump', async () => {
    const size = 200 * MiB
    const { read, reads } = counted(async (start, end) => new Uint8Array(Math.min(end, size) - start))
    const windowed = windowedReader(read, size, { window: MiB, maxWindow: 8 * MiB, wholeFileBelow: 0 })
    for (const at of [0, 2 * MiB, 5 * MiB, 10 * MiB, 20 * MiB, 150 * MiB]) await windowed(at, at + 8)
    expect(reads).toEqual([
      [0, MiB], [2 * MiB, 4 * MiB], [5 * MiB, 9 * MiB], [10 * MiB, 18 * MiB], [20 * MiB, 28 * MiB], [150 * MiB, 151 * MiB],
    ])
    // Inside a window already read: no read at all.
    await windowed(150 * MiB + 100, 150 * MiB + 200)
    expect(reads.length).toBe(6)
  })

  it('fetches a read longer than its window in one piece, and refuses the read past its budget', async () => {
    const size = 100 * MiB
    const { read, reads } = counted(async (start, end) => new Uint8Array(Math.min(end, size) - start))
    const windowed = windowedReader(read, size, { maxReads: 2, wholeFileBelow: 0 })
    expect((await windowed(0, 3 * MiB)).length).toBe(3 * MiB)
    await windowed(50 * MiB, 50 * MiB + 8)
    await expect(windowed(90 * MiB, 90 * MiB + 8)).rejects.toBeInstanceOf(ReadBudgetExceeded)
    expect(reads).toEqual([[0, 3 * MiB], [50 * MiB, 51 * MiB]])
  })
})

describe('scanVideoLocation budgets', () => {
  it('refuses an 800 KB MP4 of 99,000 empty top-level boxes (too-complex) after one read', async () => {
    const file = manyBoxesMp4(99_000)
    const { read, reads } = memory(file)
    expect(await scanVideoLocation(read, file.length)).toEqual({ ok: false, reason: 'too-complex' })
    expect(reads).toEqual([[0, file.length]])
  })

  it('keeps an MP4 with as many boxes as the budget allows', async () => {
    const file = manyBoxesMp4(LOCATION_SCAN_LIMITS.maxElements - 10)
    expect(await scanVideoLocation(memory(file).read, file.length)).toEqual({ ok: true, container: 'mp4', patches: [], removed: [] })
  })

  it('refuses a WebM of 60,000 Void elements (too-complex) after one read', async () => {
    const file = manyVoidsWebm(60_000)
    const { read, reads } = memory(file)
    expect(await scanVideoLocation(read, file.length, { container: 'matroska' })).toEqual({ ok: false, reason: 'too-complex' })
    expect(reads.length).toBe(1)
    const few = manyVoidsWebm(1000)
    expect(await scanVideoLocation(memory(few).read, few.length, { container: 'matroska' })).toMatchObject({ ok: true, patches: [] })
  })

  it('refuses a WebM whose SimpleTags nest 30,000 deep (too-complex) without exhausting the stack, and blanks one nested 10 deep', async () => {
    const deep = deepTagsWebm(30_000)
    expect(await scanVideoLocation(memory(deep).read, deep.length)).toEqual({ ok: false, reason: 'too-complex' })
    const shallow = deepTagsWebm(10)
    const result = await scanVideoLocation(memory(shallow).read, shallow.length)
    expect(result).toMatchObject({ ok: true, removed: [`/Segment/Tags/Tag${'/SimpleTag[NESTED]'.repeat(10)}/SimpleTag[LOCATION]`] })
  })

  it('reads a fragmented 500 MiB MP4 (200 fragments of 2.5 MiB) in at most 40 reads, its window growing', async () => {
    const moov = box('moov', mvhd())
    const fragments = Array.from({ length: 200 }, () => [{ type: 'moof', size: 1024 }, { type: 'mdat', size: 2.5 * MiB - 1024 }]).flat()
    const file = virtualMp4(new Uint8Array(Buffer.concat([ftyp, moov])), fragments)
    expect(file.size).toBeGreaterThan(500 * MiB)
    expect(await scanVideoLocation(file.read, file.size, { container: 'mp4' })).toEqual({ ok: true, container: 'mp4', patches: [], removed: [] })
    expect(file.reads.length).toBeLessThanOrEqual(40)
    expect(Math.max(...file.reads.map(([start, end]) => end - start))).toBeLessThanOrEqual(16 * MiB)
  }, 20_000)

  it('reads a 1 GiB file of boxes 2 MiB apart (a WebM\'s clusters, say) nearly whole, in one read per 16 MiB', async () => {
    const moov = box('moov', mvhd())
    const file = virtualMp4(new Uint8Array(Buffer.concat([ftyp, moov])), Array.from({ length: 512 }, () => ({ type: 'free', size: 2 * MiB })))
    expect(await scanVideoLocation(file.read, file.size, { container: 'mp4' })).toMatchObject({ ok: true })
    expect(file.reads.length).toBeGreaterThan(64)
    expect(file.reads.length).toBeLessThanOrEqual(Math.ceil(file.size / (16 * MiB)) + 8)
  }, 20_000)

  it('refuses an 800 MiB MP4 whose top-level boxes lie 10 MiB apart once it needs more than 64 reads, each of 1 MiB', async () => {
    const moov = box('moov', mvhd())
    const file = virtualMp4(new Uint8Array(Buffer.concat([ftyp, moov])), Array.from({ length: 80 }, () => ({ type: 'free', size: 10 * MiB })))
    const options: LocationScanOptions = { container: 'mp4' }
    expect(await scanVideoLocation(file.read, file.size, options)).toEqual({ ok: false, reason: 'too-complex' })
    expect(file.reads.length).toBe(64)
    expect(file.reads.every(([start, end]) => end - start <= MiB)).toBe(true)
  })
})
