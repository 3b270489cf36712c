import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { readJpegStructure } from '../../shared/media/jpeg'
import { readWebpStructure } from '../../shared/media/webp'

// Crafted bytes for each place a legal segment could hide data: the structural check bounds every
// table, scan and chunk to what an encoder writes (shared/media/jpeg-tables.ts, webp.ts).

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 190, g: 90, b: 60 } } })

function segment(marker: number, body: Uint8Array | string): Buffer {
  const data = typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body)
  const head = Buffer.from([0xFF, marker, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

/** Offset of the `n`th (1-based) marker `marker` that starts a segment. */
function markerAt(jpeg: Buffer, marker: number, n = 1): number {
  let found = 0
  for (let at = 2; at < jpeg.length - 1; at++) {
    if (jpeg[at] === 0xFF && jpeg[at + 1] === marker && ++found === n) return at
  }
  throw new Error(`marker ${marker.toString(16)} #${n} not found`)
}

/** `extra` inserted just before the first segment with `marker`. */
const before = (jpeg: Buffer, marker: number, extra: Buffer) => {
  const at = markerAt(jpeg, marker)
  return Buffer.concat([jpeg.subarray(0, at), extra, jpeg.subarray(at)])
}

/** A quantisation table segment holding a text in its 64 values (table id `id`). */
const textDqt = (id: number, text: string) => segment(0xDB, Buffer.concat([Buffer.from([id]), Buffer.from(text.padEnd(64, '.').slice(0, 64), 'latin1')]))

/** A Huffman table segment (class, id) whose symbols spell a text, with valid code-length counts. */
function textDht(tableClass: number, id: number, text: string): Buffer {
  const symbols = Buffer.from(text, 'latin1')
  const counts = Buffer.alloc(16)
  counts[7] = symbols.length // all codes 8 bits long: fits while there are fewer than 256
  return segment(0xC4, Buffer.concat([Buffer.from([(tableClass << 4) | id]), counts, symbols]))
}

describe('JPEG tables and scans are bounded to what an encoder writes', () => {
  it('accepts libjpeg baseline, progressive, grey, 4:4:4 and mozjpeg output', async () => {
    const picture = solid(640, 480)
    for (const options of [{}, { progressive: true }, { chromaSubsampling: '4:4:4' }, { mozjpeg: true }, { mozjpeg: true, progressive: false }, { quality: 10 }, { quality: 100 }]) {
      expect(readJpegStructure(await picture.clone().jpeg(options).toBuffer()), JSON.stringify(options)).toEqual({ ok: true, width: 640, height: 480 })
    }
    expect(readJpegStructure(await picture.clone().greyscale().jpeg().toBuffer())).toEqual({ ok: true, width: 640, height: 480 })
    expect(readJpegStructure(await picture.clone().greyscale().jpeg({ progressive: true }).toBuffer())).toEqual({ ok: true, width: 640, height: 480 })
  })

  it('refuses text hidden in an extra DQT: a table no component uses, or one defined twice', async () => {
    const jpeg = await solid(640, 480).jpeg().toBuffer()
    expect(readJpegStructure(before(jpeg, 0xC0, textDqt(3, 'meet me at the north exit')))).toEqual({ ok: false, reason: 'metadata' })
    expect(readJpegStructure(before(jpeg, 0xC0, textDqt(0, 'meet me at the north exit')))).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses text after the tables inside a DQT segment, and a zero quantiser', async () => {
    const jpeg = await solid(640, 480).jpeg().toBuffer()
    const at = markerAt(jpeg, 0xDB)
    const length = jpeg.readUInt16BE(at + 2)
    const longer = Buffer.concat([jpeg.subarray(0, at + 2), Buffer.from([0, 0]), jpeg.subarray(at + 4, at + 2 + length), Buffer.from('hidden!'), jpeg.subarray(at + 2 + length)])
    longer.writeUInt16BE(length + 7, at + 2)
    expect(readJpegStructure(longer)).toEqual({ ok: false, reason: 'wrong-format' })
    const zero = Buffer.from(jpeg)
    zero[at + 5] = 0
    expect(readJpegStructure(zero)).toEqual({ ok: false, reason: 'wrong-format' })
  })

  it('refuses text hidden in an extra DHT: a table no scan uses, symbols no scan can code, repeated symbols', async () => {
    const jpeg = await solid(640, 480).jpeg().toBuffer()
    expect(readJpegStructure(before(jpeg, 0xDA, textDht(1, 3, 'meet me at the north exit')))).toEqual({ ok: false, reason: 'metadata' })
    // Redefining a table the scan uses, with symbols that are text: DC symbols are 0–11 only.
    expect(readJpegStructure(before(jpeg, 0xDA, textDht(0, 0, 'meet me')))).toEqual({ ok: false, reason: 'metadata' })
    const repeated = Buffer.concat([Buffer.from([0x10]), Buffer.alloc(16), Buffer.from([1, 1])])
    repeated[1 + 7] = 2
    expect(readJpegStructure(before(jpeg, 0xDA, segment(0xC4, repeated)))).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses a DHT whose code lengths cannot form a prefix code', async () => {
    const jpeg = await solid(640, 480).jpeg().toBuffer()
    const counts = Buffer.alloc(16)
    counts[0] = 3 // three 1-bit codes
    expect(readJpegStructure(before(jpeg, 0xDA, segment(0xC4, Buffer.concat([Buffer.from([0x00]), counts, Buffer.from([0, 1, 2])]))))).toEqual({ ok: false, reason: 'wrong-format' })
  })

  it('refuses a scan header longer than its components, and a longer restart interval', async () => {
    const jpeg = await solid(640, 480).jpeg().toBuffer()
    const at = markerAt(jpeg, 0xDA)
    const length = jpeg.readUInt16BE(at + 2)
    const longer = Buffer.concat([jpeg.subarray(0, at + 2 + length), Buffer.from('hidden'), jpeg.subarray(at + 2 + length)])
    longer.writeUInt16BE(length + 6, at + 2)
    expect(readJpegStructure(longer)).toEqual({ ok: false, reason: 'wrong-format' })
    expect(readJpegStructure(before(jpeg, 0xDA, segment(0xDD, Buffer.from([0, 4, 0x41, 0x42]))))).toEqual({ ok: false, reason: 'wrong-format' })
    expect(readJpegStructure(before(jpeg, 0xDA, segment(0xDD, Buffer.from([0, 4]))))).toEqual({ ok: true, width: 640, height: 480 })
  })

  it('refuses a scan that sends coefficients already sent: a baseline scan twice, a progressive scan repeated', async () => {
    const baseline = await solid(640, 480).jpeg().toBuffer()
    const scan = baseline.subarray(markerAt(baseline, 0xDA), baseline.length - 2)
    expect(readJpegStructure(Buffer.concat([baseline.subarray(0, baseline.length - 2), scan, baseline.subarray(baseline.length - 2)]))).toEqual({ ok: false, reason: 'metadata' })
    const progressive = await solid(640, 480).jpeg({ progressive: true }).toBuffer()
    const second = markerAt(progressive, 0xDA, 2)
    const third = markerAt(progressive, 0xDA, 3)
    const repeated = Buffer.concat([progressive.subarray(0, third), progressive.subarray(second, third), progressive.subarray(third)])
    expect(readJpegStructure(repeated)).toEqual({ ok: false, reason: 'metadata' })
  })
})

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.write(type, 0, 'latin1')
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body, Buffer.alloc(body.length & 1)])
}

function riff(...chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP'), ...chunks])
  const head = Buffer.from('RIFF\0\0\0\0', 'latin1')
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body])
}

/** The chunks of a WebP as [type, body] pairs. */
function chunksOf(webp: Buffer): [string, Buffer][] {
  const out: [string, Buffer][] = []
  for (let at = 12; at < webp.length;) {
    const size = webp.readUInt32LE(at + 4)
    out.push([webp.toString('latin1', at, at + 4), webp.subarray(at + 8, at + 8 + size)])
    at += 8 + size + (size & 1)
  }
  return out
}

describe('WebP chunks are bounded to what an encoder writes', () => {
  const translucent = () => sharp({ create: { width: 480, height: 360, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).webp().toBuffer()

  it('accepts libwebp lossy, lossless and translucent output at any quality', async () => {
    for (const options of [{ quality: 1 }, { quality: 80 }, { quality: 100 }, { lossless: true }, { nearLossless: true }]) {
      expect(readWebpStructure(await solid(480, 360).webp(options).toBuffer()), JSON.stringify(options)).toEqual({ ok: true, width: 480, height: 360 })
    }
    expect(readWebpStructure(await translucent())).toEqual({ ok: true, width: 480, height: 360 })
  })

  it('refuses a VP8X chunk longer than its 10 bytes, or with reserved bits set', async () => {
    const [first, ...rest] = chunksOf(await translucent())
    const vp8x = first?.[1] ?? Buffer.alloc(0)
    const others = rest.map(([type, body]) => chunk(type, body))
    expect(readWebpStructure(riff(chunk('VP8X', Buffer.concat([vp8x, Buffer.from('hidden')])), ...others))).toEqual({ ok: false, reason: 'metadata' })
    const reserved = Buffer.from(vp8x)
    reserved[1] = 0x41
    expect(readWebpStructure(riff(chunk('VP8X', reserved), ...others))).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses an ALPH chunk the VP8X flags do not announce', async () => {
    const [first, ...rest] = chunksOf(await translucent())
    const vp8x = first?.[1] ?? Buffer.alloc(0)
    const unannounced = Buffer.from(vp8x)
    unannounced[0] = unannounced[0]! & ~0x10
    expect(readWebpStructure(riff(chunk('VP8X', unannounced), ...rest.map(([type, body]) => chunk(type, body))))).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses a VP8 frame that is not a shown key frame, or whose first partition overruns the chunk', async () => {
    const [[, vp8] = ['', Buffer.alloc(0)]] = chunksOf(await solid(480, 360).webp().toBuffer())
    const hidden = Buffer.from(vp8!)
    hidden[0] = hidden[0]! & ~0x10 // show_frame 0
    expect(readWebpStructure(riff(chunk('VP8 ', hidden))).ok).toBe(false)
    const overrun = Buffer.from(vp8!)
    const tag = overrun.readUIntLE(0, 3) | (0x7FFFF << 5)
    overrun.writeUIntLE(tag & 0xFFFFFF, 0, 3)
    expect(readWebpStructure(riff(chunk('VP8 ', overrun))).ok).toBe(false)
  })
})
