import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { blobReader, readMp4Duration } from '../../shared/media/mp4-duration'

const clip = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/clip-2s.mp4')))
const duration = (bytes: Uint8Array<ArrayBuffer>) => readMp4Duration(blobReader(new Blob([bytes])), bytes.length)

function box(type: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(8 + body.length)
  new DataView(out.buffer).setUint32(0, out.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(body, 8)
  return out
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

describe('readMp4Duration', () => {
  it('reads 2 seconds from the real H.264 fixture', async () => {
    expect(await duration(clip)).toBeCloseTo(2, 2)
  })

  it('still reads it with a 1 MiB free box after the movie (the browser tests\' padding)', async () => {
    const padding = new Uint8Array(1024 * 1024)
    expect(await duration(concat(clip, box('free', padding)))).toBeCloseTo(2, 2)
  })

  it('reads a version 1 mvhd (64-bit times) behind the media data, as some phones write it', async () => {
    const mvhd = new Uint8Array(4 + 28)
    const view = new DataView(mvhd.buffer)
    mvhd[0] = 1
    view.setUint32(4 + 16, 600)
    view.setBigUint64(4 + 20, 600n * 4242n)
    const file = concat(box('ftyp', new TextEncoder().encode('qt  ')), box('mdat', new Uint8Array(5000)), box('moov', box('mvhd', mvhd)))
    expect(await duration(file)).toBe(4242)
  })

  it('reads a fragmented file\'s length from mvex/mehd when its mvhd says 0 (as recorders write it)', async () => {
    const mvhd = new Uint8Array(4 + 16)
    new DataView(mvhd.buffer).setUint32(4 + 8, 1000)
    const mehd = new Uint8Array(8)
    new DataView(mehd.buffer).setUint32(4, 400_000)
    const file = concat(box('ftyp', new TextEncoder().encode('isom')), box('moov', concat(box('mvhd', mvhd), box('mvex', box('mehd', mehd)))), box('moof', new Uint8Array(8)))
    expect(await duration(file)).toBe(400)
  })

  it('answers null for bytes that are not an MP4, a truncated file and a zero timescale', async () => {
    expect(await duration(new TextEncoder().encode('<html>not a video</html>'))).toBeNull()
    expect(await duration(clip.subarray(0, 200))).toBeNull()
    const mvhd = new Uint8Array(4 + 16)
    const file = concat(box('ftyp', new TextEncoder().encode('isom')), box('moov', box('mvhd', mvhd)))
    expect(await duration(file)).toBeNull()
  })
})
