import { readFileSync } from 'node:fs'
import type { BrowserContext, Route } from 'playwright-core'
import QRCode from 'qrcode'
import sharp from 'sharp'
import type { GalleryItem, GalleryPage } from '../../../shared/schemas/gallery'
import { CLIP } from './media'

/**
 * `GET /api/gallery` exactly as api-contract.md describes it (approved items, newest first, ties
 * by id, opaque cursor, `nextCursor` null on the last page, limit 1–100 default 24), served inside
 * the browser with page routes, with media it makes itself. It stands in while the real endpoint
 * (issue 4) is not merged on this branch; the same tests run against the real one once it is.
 */
export class FakeGallery {
  /** Newest first. */
  items: GalleryItem[] = []
  requests = 0
  private clock = Date.UTC(2026, 11, 12, 19, 0)
  private serial = 0
  private readonly images = new Map<string, Buffer>()
  private readonly clip = readFileSync(CLIP)
  /** While true the gallery answers nothing at all (the venue's network dropped). */
  offline = false

  /** A new approved item on top, with an image of its own (varied shapes, a visible label). */
  async approve(kind: 'photo' | 'video', author = '', message = '', options: { thumb?: boolean } = {}): Promise<GalleryItem> {
    this.serial++
    this.clock += 60_000
    const id = `fake${String(this.serial).padStart(4, '0')}`
    const shapes = [[1600, 1200], [1080, 1350], [1200, 1200], [1920, 1080]] as const
    const [width, height] = shapes[this.serial % shapes.length]!
    const hue = (this.serial * 47) % 360
    if (kind === 'photo') {
      this.images.set(`${id}-display.jpg`, await labelled(width, height, hue, `#${this.serial}`))
      this.images.set(`${id}-thumb.jpg`, await labelled(480, Math.round((480 * height) / width), hue, `#${this.serial}`))
    }
    else if (options.thumb !== false) {
      this.images.set(`${id}-poster.jpg`, await labelled(480, 360, hue, `▶ #${this.serial}`))
    }
    const item: GalleryItem = {
      id,
      kind,
      author,
      message,
      url: kind === 'photo' ? `/fake-media/${id}-display.jpg` : `/fake-media/${id}.mp4`,
      thumbUrl: kind === 'photo' ? `/fake-media/${id}-thumb.jpg` : options.thumb !== false ? `/fake-media/${id}-poster.jpg` : null,
      width: kind === 'photo' ? width : 320,
      height: kind === 'photo' ? height : 240,
      durationSec: kind === 'video' ? 2 : null,
      createdAt: new Date(this.clock).toISOString(),
    }
    this.items.unshift(item)
    return item
  }

  remove(id: string) {
    this.items = this.items.filter(item => item.id !== id)
  }

  page(limit: number, cursor: string | null): GalleryPage {
    const start = cursor ? this.items.findIndex(item => item.id === Buffer.from(cursor, 'base64url').toString()) + 1 : 0
    const items = this.items.slice(start, start + limit)
    const more = start + limit < this.items.length
    return { items, nextCursor: more && items.length ? Buffer.from(items.at(-1)!.id).toString('base64url') : null }
  }

  /** Routes /api/gallery and /fake-media/* of every page in the context. */
  async install(context: BrowserContext) {
    await context.route(url => url.pathname === '/api/gallery', async (route: Route) => {
      this.requests++
      if (this.offline) return route.abort('internetdisconnected')
      const url = new URL(route.request().url())
      const limit = Number(url.searchParams.get('limit') ?? 24)
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(this.page(limit, url.searchParams.get('cursor'))) })
    })
    await context.route(url => url.pathname.startsWith('/fake-media/'), async (route: Route) => {
      if (this.offline) return route.abort('internetdisconnected')
      const name = new URL(route.request().url()).pathname.slice('/fake-media/'.length)
      if (name.endsWith('.mp4')) {
        return route.fulfill({ status: 200, contentType: 'video/mp4', body: this.clip, headers: { 'accept-ranges': 'none', 'cache-control': 'public, max-age=31536000, immutable' } })
      }
      const image = this.images.get(name)
      if (!image) return route.fulfill({ status: 404 })
      await route.fulfill({ status: 200, contentType: 'image/jpeg', body: image, headers: { 'cache-control': 'public, max-age=31536000, immutable' } })
    })
  }
}

async function labelled(width: number, height: number, hue: number, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><radialGradient id="g" cx="30%" cy="30%" r="90%">
      <stop offset="0" stop-color="hsl(${hue},55%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},45%,35%)"/>
    </radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="56%" font-family="serif" font-size="${Math.round(Math.min(width, height) / 4)}" fill="white" fill-opacity="0.9" text-anchor="middle">${label}</text>
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 78 }).toBuffer()
}

/**
 * GET /api/qrcode is another issue's (5): where the server does not answer it yet, the browser
 * gets a real QR code of /enviar made here, so the slideshow's corner can be checked and seen.
 */
export async function standInForQrCode(context: BrowserContext, serverUrl: string): Promise<boolean> {
  const probe = await fetch(`${serverUrl}/api/qrcode?format=svg`)
  if (probe.ok && probe.headers.get('content-type')?.startsWith('image/svg+xml')) return false
  const svg = await QRCode.toString(`${serverUrl}/enviar`, { type: 'svg', margin: 1 })
  await context.route(url => url.pathname === '/api/qrcode', route => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: svg }))
  return true
}
