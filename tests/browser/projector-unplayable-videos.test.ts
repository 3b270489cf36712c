import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { VIDEO_START_MS } from '../../shared/slideshow'
import { mp4 } from '../support/fixtures'
import { lavfi, makeMedia, testPicture } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { labelledJpeg, tempDir } from '../support/media'
import { useTestServer } from '../support/suite/test-server'
import { keyOfUrl, uploadFile } from '../support/uploads'
import { skipSlideHold, until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The projector never shows a black frame: on a server without ffmpeg an iPhone's HEVC video is
 * `poster-only` and shows as a photo; a video Chromium cannot decode (its error) or that does not
 * start within VIDEO_START_MS (its bytes held back) shows its poster for a slide's time, and the
 * show goes on. Real server, real Chromium; the held video is held by the page's own network route.
 */
describe('the projector, the viewer and videos they cannot play', () => {
  const server = useTestServer({ admin: true, env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } })
  const pages = useBrowser({ server })
  const ids = { hevc: '', broken: '', held: '' }
  const posters: Record<keyof typeof ids, string> = { hevc: '', broken: '', held: '' }
  let heldKey = ''

  beforeAll(async () => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', guestDownloads: true }, cookie: server.cookie })).status).toBe(200)
    const dir = tempDir()
    const picture = lavfi(testPicture(1, '160x120', 10))
    const clips = {
      hevc: { bytes: makeMedia(join(dir, 'iphone.mov'), picture, ['-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1', '-x265-params', 'log-level=error']), contentType: 'video/quicktime' },
      // Box headers with no picture in them: stored as sent (no codec named), and no browser decodes it.
      broken: { bytes: mp4(4096), contentType: 'video/mp4' },
      held: { bytes: makeMedia(join(dir, 'held.mp4'), picture, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart']), contentType: 'video/mp4' },
    }
    let hue = 0
    for (const name of ['hevc', 'broken', 'held'] as const) {
      const { bytes, contentType } = clips[name]
      const sent = await uploadFile(server.url, bytes, { fileName: `${name}.mp4`, contentType, size: bytes.length, durationSec: 1, author: `Vídeo ${name}` }, { poster: await labelledJpeg(640, 360, hue += 100, name) })
      expect(sent.confirm.status).toBe(200)
      ids[name] = sent.init.id
      if (name === 'held') heldKey = keyOfUrl(sent.init.upload.url)
    }
    const items = (await api(server.url, '/api/gallery?limit=100')).body.items
    for (const name of ['hevc', 'broken', 'held'] as const) posters[name] = items.find((item: any) => item.id === ids[name]).thumbUrl
    expect(items.find((item: any) => item.id === ids.hevc).display).toBe('poster-only')
    expect(items.find((item: any) => item.id === ids.broken).display).toBe('original')
  }, 120_000)

  const onScreen = (page: Page) => page.getAttribute('[data-testid=slideshow]', 'data-id')

  /** The projector's page, its timers on the page clock, with the held video's bytes never answered. */
  async function openProjector(): Promise<Page> {
    const page = await (await pages.context('desktop')).newPage()
    await page.route(url => url.pathname.endsWith(heldKey), () => {
      // Never answered: the video waits for bytes that do not come, as on a stalled network.
    })
    await page.clock.install()
    await page.goto('/galeria?slideshow=1&segundos=20&convite=0')
    return page
  }

  /**
   * The screen in one instant: the item it names, each layer (its item, ready or loading, its
   * picture, its videos). Read in one evaluation, so a slide that changes between two reads (the
   * page's clock still runs) cannot pair one slide's name with another's picture.
   */
  const snapshot = (page: Page) => page.evaluate(() => {
    const show = document.querySelector('[data-testid=slideshow]')
    const layers = [...document.querySelectorAll('.slideshow-slide')].map(layer => ({
      item: layer.getAttribute('data-item'),
      ready: layer.classList.contains('slideshow-slide--ready'),
      videos: layer.querySelectorAll('video').length,
      picture: layer.querySelector('img.slideshow-slide__media')?.getAttribute('src') ?? null,
    }))
    return { onScreen: show?.getAttribute('data-id') ?? null, layers }
  })

  /** Waits for `id` on screen, moving the show along meanwhile; answers what that slide shows. */
  async function slideOf(page: Page, id: string) {
    let seen: Awaited<ReturnType<typeof snapshot>> | undefined
    const slide = await until(async () => {
      const now = seen = await snapshot(page)
      const loading = now.layers.filter(layer => !layer.ready)
      // The show names its next item as that slide starts loading, under the one still shown:
      // what `id` shows is read only once its own layer is ready and no other is loading.
      if (now.onScreen === id && !loading.length) return now.layers.filter(layer => layer.ready).at(-1)
      // The held video, loading under the slide on screen: its start deadline passes at once.
      if (loading.some(layer => layer.videos)) await page.clock.fastForward(VIDEO_START_MS + 100)
      else if (now.onScreen !== id) await skipSlideHold(page, 20_000)
      return undefined
    }, 60_000, `slide ${id}`).catch((error: Error) => {
      throw new Error(`${error.message}; the screen last held ${JSON.stringify(seen)}`)
    })
    // The slide the screen names is the top ready layer: the same Vue update sets both.
    expect(slide.item, JSON.stringify(seen)).toBe(id)
    return { videos: slide.videos, picture: slide.picture }
  }

  it('shows a poster-only HEVC video, a video Chromium cannot decode and one that does not start in 3 s as their posters, then goes on', async () => {
    const page = await openProjector()
    for (const name of ['held', 'broken', 'hevc'] as const) {
      expect(await slideOf(page, ids[name]), name).toEqual({ videos: 0, picture: posters[name] })
    }
    // A poster stays a slide's time, like a photo, and the next slide follows.
    const last = await onScreen(page)
    await page.clock.fastForward(20_000 + 1000)
    await until(async () => (await onScreen(page)) !== last, 20_000, 'the next slide after a poster')
  })

  it('the phone viewer shows a poster-only video as its poster, says where it plays, and offers the download', async () => {
    const page = await pages.page('phone', '/galeria')
    await page.locator(`[data-testid=gallery-item][data-id="${ids.hevc}"]`).click()
    const viewer = page.locator('[data-testid=viewer]')
    await viewer.waitFor()
    expect(await viewer.locator('video').count()).toBe(0)
    expect(await viewer.locator('[data-testid=viewer-poster]').getAttribute('src')).toBe(posters.hevc)
    expect(await viewer.locator('[data-testid=viewer-poster-only]').textContent()).toContain('Este vídeo toca no celular de quem o gravou.')
    expect(await viewer.locator('[data-testid=download]').getAttribute('href')).toBe(`${server.url}/api/gallery/download/${ids.hevc}`)
    expect(await viewer.locator('[data-testid=viewer-sound]').count()).toBe(0)
  })
})
