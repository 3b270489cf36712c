import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { checkPoster, POSTER_MAX_HEIGHT, POSTER_MAX_WIDTH } from '../../shared/media/poster'
import { POSTER_MAX_BYTES } from '../../shared/limits'
import { jpegWithGps } from '../support/fixtures'

const frame = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 60, b: 90 } } })

describe('checkPoster', () => {
  it('accepts a plain JPEG frame as a page draws it (640 wide, landscape or portrait)', async () => {
    expect(checkPoster(await frame(640, 360).jpeg({ quality: 80 }).toBuffer())).toEqual({ ok: true, width: 640, height: 360 })
    expect(checkPoster(await frame(640, 1138).jpeg({ quality: 80, progressive: true }).toBuffer())).toEqual({ ok: true, width: 640, height: 1138 })
  })

  it('refuses a poster with EXIF GPS, an ICC profile or a comment as metadata', async () => {
    expect(checkPoster(await jpegWithGps(64, 36))).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPoster(await frame(64, 36).jpeg().withIccProfile('srgb').toBuffer())).toEqual({ ok: false, reason: 'metadata' })
    const plain = await frame(64, 36).jpeg().toBuffer()
    const comment = Buffer.concat([plain.subarray(0, 2), Buffer.from([0xFF, 0xFE, 0, 7]), Buffer.from('hello'), plain.subarray(2)])
    expect(checkPoster(comment)).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses JPEG magic followed by HTML, and a JPEG with bytes after its end', async () => {
    const html = Buffer.concat([Buffer.from([0xFF, 0xD8, 0xFF]), Buffer.from('<html><script>alert(1)</script></html>')])
    // The segment walk reads "<h" as a marker and "tm" as a length past the end.
    expect(checkPoster(html)).toEqual({ ok: false, reason: 'truncated' })
    expect(checkPoster(Buffer.concat([Buffer.from([0xFF, 0xD8, 0xFF, 0xD9]), Buffer.from('<html>')]))).toEqual({ ok: false, reason: 'wrong-format' })
    const plain = await frame(64, 36).jpeg().toBuffer()
    expect(checkPoster(Buffer.concat([plain, Buffer.from('<script>alert(1)</script>')]))).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses other formats, empty and cut-short files', async () => {
    expect(checkPoster(await frame(64, 36).png().toBuffer())).toEqual({ ok: false, reason: 'wrong-format' })
    expect(checkPoster(await frame(64, 36).webp().toBuffer())).toEqual({ ok: false, reason: 'wrong-format' })
    expect(checkPoster(new Uint8Array())).toEqual({ ok: false, reason: 'truncated' })
    const plain = await frame(64, 36).jpeg().toBuffer()
    expect(checkPoster(plain.subarray(0, plain.length - 40))).toEqual({ ok: false, reason: 'truncated' })
  })

  it('refuses sizes no page draws, and bytes past the cap', async () => {
    expect(checkPoster(await frame(POSTER_MAX_WIDTH + 1, 360).jpeg().toBuffer())).toEqual({ ok: false, reason: 'dimensions' })
    expect(checkPoster(await frame(100, POSTER_MAX_HEIGHT + 1).jpeg().toBuffer())).toEqual({ ok: false, reason: 'dimensions' })
    expect(checkPoster(new Uint8Array(POSTER_MAX_BYTES + 1))).toEqual({ ok: false, reason: 'too-large' })
  })
})
