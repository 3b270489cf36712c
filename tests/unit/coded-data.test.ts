import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { codedDataFillsImage } from '../../server/utils/uploads/coded-data'

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 190, g: 90, b: 60 } } })
function noise(width: number, height: number, channels: 3 | 4 = 3) {
  const raw = Buffer.alloc(width * height * channels)
  let seed = 7
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    raw[i] = seed >>> 24
  }
  return sharp(raw, { raw: { width, height, channels } })
}
const translucent = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } })

/** The JPEG with `extra` bytes at the end of its last scan, before EOI. */
const inLastScan = (jpeg: Buffer, extra: Buffer) => Buffer.concat([jpeg.subarray(0, jpeg.length - 2), extra, jpeg.subarray(jpeg.length - 2)])

/** The WebP with `extra` appended inside its chunk `type` (chunk and RIFF sizes fixed). */
function insideChunk(webp: Buffer, type: string, extra: Buffer): Buffer {
  for (let at = 12; at < webp.length;) {
    const size = webp.readUInt32LE(at + 4)
    const end = at + 8 + size + (size & 1)
    if (webp.toString('latin1', at, at + 4) === type) {
      const body = Buffer.concat([webp.subarray(at + 8, at + 8 + size), extra])
      const head = Buffer.from(webp.subarray(at, at + 8))
      head.writeUInt32LE(body.length, 4)
      const out = Buffer.concat([webp.subarray(0, at), head, body, Buffer.alloc(body.length & 1), webp.subarray(end)])
      out.writeUInt32LE(out.length - 8, 4)
      return out
    }
    at = end
  }
  throw new Error(`no ${type} chunk`)
}

const HIDDEN = Buffer.from('meet me at the north exit')

describe('codedDataFillsImage: the coded data ends where the image does', () => {
  const cases = [[480, 360], [2048, 1536], [17, 9], [1, 1]] as const
  it.each(cases)('accepts what libjpeg and libwebp write, plain and noisy (%i × %i)', async (width, height) => {
    for (const image of [solid(width, height), noise(width, height)]) {
      expect(await codedDataFillsImage(await image.clone().jpeg({ quality: 85 }).toBuffer())).toBe(true)
      expect(await codedDataFillsImage(await image.clone().jpeg({ quality: 85, progressive: true }).toBuffer())).toBe(true)
      expect(await codedDataFillsImage(await image.clone().webp({ quality: 80 }).toBuffer())).toBe(true)
      expect(await codedDataFillsImage(await image.clone().webp({ lossless: true }).toBuffer())).toBe(true)
    }
    expect(await codedDataFillsImage(await translucent(width, height).webp({ quality: 80 }).toBuffer())).toBe(true)
    expect(await codedDataFillsImage(await noise(width, height, 4).webp({ quality: 80 }).toBuffer())).toBe(true)
  }, 30_000)

  it('refuses text hidden at the end of the last scan of a baseline or progressive JPEG', async () => {
    expect(await codedDataFillsImage(inLastScan(await solid(480, 360).jpeg().toBuffer(), HIDDEN))).toBe(false)
    expect(await codedDataFillsImage(inLastScan(await noise(480, 360).jpeg({ progressive: true }).toBuffer(), HIDDEN))).toBe(false)
  })

  it('refuses bytes appended inside a VP8, VP8L or ALPH chunk', async () => {
    expect(await codedDataFillsImage(insideChunk(await solid(480, 360).webp().toBuffer(), 'VP8 ', HIDDEN))).toBe(false)
    expect(await codedDataFillsImage(insideChunk(await noise(480, 360).webp().toBuffer(), 'VP8 ', HIDDEN))).toBe(false)
    expect(await codedDataFillsImage(insideChunk(await solid(480, 360).webp({ lossless: true }).toBuffer(), 'VP8L', HIDDEN))).toBe(false)
    expect(await codedDataFillsImage(insideChunk(await translucent(480, 360).webp().toBuffer(), 'ALPH', HIDDEN))).toBe(false)
  })

  it('refuses what does not decode at all', async () => {
    const jpeg = await solid(480, 360).jpeg().toBuffer()
    expect(await codedDataFillsImage(Buffer.concat([jpeg.subarray(0, 400), jpeg.subarray(jpeg.length - 2)]))).toBe(false)
  })
})
