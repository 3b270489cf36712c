import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext } from 'playwright-core'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { tempDir } from '../support/media'
import { useBrowser } from './support/fixture'

/*
 * The phone path of display copies, in Debian's Chromium against a server without ffmpeg: a VP9
 * video (which Chromium decodes, but Safari and many TVs do not) gets an H.264 copy made in the
 * page with WebCodecs, and the server, having checked it, serves it. ffmpeg here only makes the
 * original and reads the copy back.
 */
describe('a display copy made in the page (server without ffmpeg)', () => {
  const server = useTestServer({ admin: true, env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let clip: string
  let opusClip: string

  beforeAll(() => {
    // 1.5 s of 1080p VP9 with AAC sound in an MP4, as an Android phone set to VP9 records.
    clip = join(tempDir(), 'VID_VP9.mp4')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30:duration=1.5', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5',
      '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '2M', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', clip])
    // VP9 with Opus sound in WebM, as Chromium's own recorder writes: its sound would need an AAC encoder.
    opusClip = join(tempDir(), 'VID_OPUS.webm')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=1.5', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5',
      '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k', '-c:a', 'libopus', '-shortest', opusClip])
  }, 60_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  it('sends an H.264 1280x720 copy with the VP9 original, and the gallery serves the copy', async () => {
    context = await pages.context('phone')
    const page = await context.newPage()
    const answers: { url: string, status: number }[] = []
    page.on('response', response => answers.push({ url: new URL(response.url()).pathname, status: response.status() }))
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.fill('[name=author]', 'Tia Maria')
    const started = Date.now()
    await page.setInputFiles('input[type=file]', [clip])
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 120_000 })
    console.info(`[phone-display-copy] picked to sent, copy included: ${Date.now() - started} ms`)
    expect(answers.filter(answer => answer.url.endsWith('/display-copy'))).toEqual([expect.objectContaining({ status: 200 })])

    const item = (await api(server.url, '/api/gallery?limit=10')).body.items[0]
    expect(item.display).toBe('copy')
    expect(item.url).toMatch(/-copy\.mp4$/)
    const copy = join(tempDir(), 'copy.mp4')
    const bytes = Buffer.from(await (await fetch(item.url)).arrayBuffer())
    writeFileSync(copy, bytes)
    const streams = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', copy]).toString()).streams
    // The sound passed through as it was (AAC): one picture, one sound, nothing dropped.
    expect(streams.map((stream: any) => stream.codec_type).sort()).toEqual(['audio', 'video'])
    expect(streams.find((stream: any) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 })
    expect(streams.find((stream: any) => stream.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' })
  }, 180_000)

  it('sends no copy when the sound cannot be kept (Opus, and no AAC encoder in this Chromium): the video is poster-only', async () => {
    context = await pages.context('phone')
    const page = await context.newPage()
    const asked: string[] = []
    page.on('request', request => asked.push(new URL(request.url()).pathname))
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.fill('[name=author]', 'Tio Paulo')
    await page.setInputFiles('input[type=file]', [opusClip])
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 120_000 })
    expect(asked.filter(path => path.endsWith('/display-copy'))).toEqual([])
    const item = (await api(server.url, '/api/gallery?limit=10')).body.items.find((each: any) => each.author === 'Tio Paulo')
    expect(item.display).toBe('poster-only')
  }, 180_000)
})
