import { readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { checkPublicImage, stripIccProfile, type PublicImageVariant, type Size } from '../../shared/media/public-image'
import { tempDir } from '../support/media'
import { phonePortrait } from '../support/phone-photos'
import { buildPublicImagesPage, servePublicImagesPage, type PublicImagesSite } from '../support/public-images-page'
import { useBrowser } from './support/fixture'

interface Made { type: string, size: number, base64: string }
interface Answer { ms: number, images: null | { width: number, height: number, display: Made, thumb: Made, thumb2x: Made } }

const HEIC = resolve(import.meta.dirname, '../fixtures/small-64x48.heic')

describe('phone-made public images (upload-client/public-images, real Chromium)', () => {
  let dir: string
  let site: PublicImagesSite
  const pages = useBrowser()
  let context: BrowserContext | undefined
  let cspViolations: string[]

  async function openPage(before?: () => void): Promise<Page> {
    context = await pages.context('phone', { baseURL: site.url })
    if (before) await context.addInitScript(before)
    const page = await context.newPage()
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
    })
    await page.goto('/')
    await page.locator('html[data-ready]').waitFor()
    return page
  }

  const make = (page: Page, name: string) => page.evaluate(name => (window as any).makeFromUrl(`/${name}`), name) as Promise<Answer>
  const bytesOf = (made: Made) => Buffer.from(made.base64, 'base64')

  /** Every image passes the server's check for its variant, with no EXIF, ICC or XMP left in it. */
  async function expectPublic(answer: Answer, original: Size, sizes: Record<PublicImageVariant, Size>) {
    expect(answer.images).not.toBeNull()
    const images = answer.images!
    expect({ width: images.width, height: images.height }).toEqual(original)
    for (const variant of ['display', 'thumb', 'thumb2x'] as const) {
      const made = images[variant]
      const bytes = bytesOf(made)
      expect(bytes.length).toBe(made.size)
      expect(checkPublicImage(bytes, { variant, original, contentType: made.type })).toEqual({ ok: true, format: made.type === 'image/webp' ? 'webp' : 'jpeg', ...sizes[variant] })
      const meta = await sharp(bytes).metadata()
      expect({ exif: meta.exif, icc: meta.icc, xmp: meta.xmp, orientation: meta.orientation }).toEqual({ exif: undefined, icc: undefined, xmp: undefined, orientation: undefined })
    }
    expect(images.display.type).toBe('image/jpeg')
  }

  /** Red on the right and blue on the left: the stored top half went where orientation 6 puts it. */
  async function expectTurnedClockwise(made: Made, size: Size) {
    const pixel = async (left: number) => [...await sharp(bytesOf(made)).extract({ left, top: size.height >> 1, width: 1, height: 1 }).raw().toBuffer()]
    const [leftR, , leftB] = await pixel(Math.round(size.width * 0.1))
    const [rightR, , rightB] = await pixel(Math.round(size.width * 0.9))
    expect(leftB!).toBeGreaterThan(leftR! + 80)
    expect(rightR!).toBeGreaterThan(rightB! + 80)
  }

  const PORTRAIT = { width: 3000, height: 4000 }
  const PORTRAIT_SIZES = { display: { width: 1536, height: 2048 }, thumb2x: { width: 720, height: 960 }, thumb: { width: 360, height: 480 } }

  beforeAll(async () => {
    dir = tempDir()
    const out = join(dir, 'page')
    const [portrait, landscapePng] = await Promise.all([
      phonePortrait(),
      sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#4a7' } }).png().toBuffer(),
      buildPublicImagesPage(out),
    ])
    site = await servePublicImagesPage(out, {
      'portrait-12mp.jpg': portrait,
      'landscape.png': landscapePng,
      'photo.heic': readFileSync(HEIC),
      // A JPEG's header and then nothing a decoder can use (a cut file still decodes, greyed out).
      'broken.jpg': Buffer.concat([portrait.subarray(0, 2), Buffer.alloc(5000, 0x5A)]),
    })
  })

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await site?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('Chromium\'s canvas tags its JPEG and WebP with an sRGB profile: refused as they come, accepted once stripped', async () => {
    const page = await openPage()
    const exports = await page.evaluate(async () => {
      const canvas = document.createElement('canvas')
      canvas.width = 480
      canvas.height = 360
      const context = canvas.getContext('2d')!
      context.fillStyle = '#b5523b'
      context.fillRect(0, 0, 480, 360)
      const offscreen = new OffscreenCanvas(480, 360)
      offscreen.getContext('2d')!.drawImage(canvas, 0, 0)
      const blobs = [
        await new Promise<Blob>(resolve => canvas.toBlob(blob => resolve(blob!), 'image/jpeg', 0.85)),
        await new Promise<Blob>(resolve => canvas.toBlob(blob => resolve(blob!), 'image/webp', 0.8)),
        await offscreen.convertToBlob({ type: 'image/jpeg', quality: 0.85 }),
        await offscreen.convertToBlob({ type: 'image/webp', quality: 0.8 }),
      ]
      return Promise.all(blobs.map(async blob => ({ type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] })))
    })
    const original = { width: 4032, height: 3024 }
    expect(exports.map(made => made.type)).toEqual(['image/jpeg', 'image/webp', 'image/jpeg', 'image/webp'])
    for (const { type, bytes } of exports) {
      const raw = Uint8Array.from(bytes)
      expect((await sharp(raw).metadata()).icc).toBeDefined()
      expect(checkPublicImage(raw, { variant: 'thumb', original, contentType: type })).toEqual({ ok: false, reason: 'metadata' })
      const stripped = stripIccProfile(raw)
      expect(checkPublicImage(stripped, { variant: 'thumb', original, contentType: type })).toEqual({ ok: true, format: type === 'image/webp' ? 'webp' : 'jpeg', width: 480, height: 360 })
    }
  })

  it('makes a portrait display image and two thumbnails from a 12 MP JPEG with orientation 6, in a worker', async () => {
    cspViolations = []
    const page = await openPage()
    const answer = await make(page, 'portrait-12mp.jpg')
    await expectPublic(answer, PORTRAIT, PORTRAIT_SIZES)
    await expectTurnedClockwise(answer.images!.display, PORTRAIT_SIZES.display)
    await expectTurnedClockwise(answer.images!.thumb, PORTRAIT_SIZES.thumb)
    // Chromium's canvas writes WebP: the thumbnails are WebP, lighter than JPEG.
    expect([answer.images!.thumb.type, answer.images!.thumb2x.type]).toEqual(['image/webp', 'image/webp'])
    expect(page.workers()).toHaveLength(1)
    // The worker loaded under the app's page policy (a nonce and 'strict-dynamic').
    expect(cspViolations).toEqual([])
  })

  it('does the same on the main thread where there is no OffscreenCanvas', async () => {
    cspViolations = []
    const page = await openPage(() => {
      delete (globalThis as any).OffscreenCanvas
    })
    const answer = await make(page, 'portrait-12mp.jpg')
    await expectPublic(answer, PORTRAIT, PORTRAIT_SIZES)
    await expectTurnedClockwise(answer.images!.display, PORTRAIT_SIZES.display)
    expect(page.workers()).toHaveLength(0)
  })

  it('does the same with createImageBitmap alone, where there is no ImageDecoder either (Safari)', async () => {
    const page = await openPage(() => {
      delete (globalThis as any).OffscreenCanvas
      delete (globalThis as any).ImageDecoder
    })
    const answer = await make(page, 'portrait-12mp.jpg')
    await expectPublic(answer, PORTRAIT, PORTRAIT_SIZES)
    await expectTurnedClockwise(answer.images!.display, PORTRAIT_SIZES.display)
  })

  it('makes them from a PNG too, whose size only a decode tells', async () => {
    const page = await openPage()
    const answer = await make(page, 'landscape.png')
    await expectPublic(answer, { width: 3000, height: 2000 }, {
      display: { width: 2048, height: 1365 }, thumb2x: { width: 960, height: 640 }, thumb: { width: 480, height: 320 },
    })
  })

  it('answers null for a HEIC Chromium cannot decode, and for a broken JPEG: the original goes alone', async () => {
    const page = await openPage()
    // Compared as booleans: a wrong answer would print megabytes of base64.
    expect((await make(page, 'photo.heic')).images === null).toBe(true)
    expect((await make(page, 'broken.jpg')).images === null).toBe(true)
    // The page still makes images afterwards: a failure leaves the worker usable.
    expect((await make(page, 'landscape.png')).images !== null).toBe(true)
    // A photo the guest removed before its turn is skipped.
    expect(await page.evaluate(() => (window as any).makeAborted())).toBe(true)
  })
})
