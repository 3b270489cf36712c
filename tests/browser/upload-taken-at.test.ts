import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { labelledJpeg, tempDir } from '../support/media'
import { useTestServer } from '../support/suite/test-server'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * A phone's photo lands in the moment it was taken in, the guest choosing nothing: /enviar reads
 * the JPEG's EXIF DateTimeOriginal (with its offset, or without one as the phone's own clock then)
 * before anything is stripped, and init carries it as takenAt. Real server, real Chromium, the
 * dates written into the files by exiftool.
 */
describe('takenAt read on the phone (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })

  async function photoTaken(dir: string, name: string, hue: number, tags: string[]): Promise<string> {
    const path = join(dir, name)
    writeFileSync(path, await labelledJpeg(800, 600, hue, name))
    execFileSync('exiftool', ['-q', '-overwrite_original', ...tags, path])
    return path
  }

  it('a photo whose DateTimeOriginal falls in a moment\'s window lands in it; one outside every window in none', async () => {
    // Cerimônia 19:00–21:00 in Brasília (−03:00).
    const ceremony = (await admin('POST', '/api/admin/moments', { name: 'Cerimônia', startsAt: '2026-11-21T19:00:00-03:00', endsAt: '2026-11-21T21:00:00-03:00' })).body.id
    const dir = tempDir()
    const withOffset = await photoTaken(dir, 'COM_FUSO.jpg', 30, ['-DateTimeOriginal=2026:11:21 19:30:00', '-OffsetTimeOriginal=-03:00'])
    // No offset: the phone's own zone (São Paulo, the context's) says what 20:15 meant.
    const localTime = await photoTaken(dir, 'SEM_FUSO.jpg', 150, ['-DateTimeOriginal=2026:11:21 20:15:00'])
    const outside = await photoTaken(dir, 'DEPOIS.jpg', 270, ['-DateTimeOriginal=2026:11:21 23:10:00', '-OffsetTimeOriginal=-03:00'])

    const page = await (await pages.context('phone', { timezoneId: 'America/Sao_Paulo' })).newPage()
    const inits: Record<string, unknown>[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/uploads/init') inits.push(JSON.parse(request.postData() ?? '{}'))
    })
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.setInputFiles('input[type=file]', [withOffset, localTime, outside])
    await until(async () => (await page.locator('[data-testid=upload-item][data-state=done]').count()) === 3, 60_000, 'the three photos sent')

    const takenAt = Object.fromEntries(inits.map(body => [body.fileName, body.takenAt]))
    expect(takenAt).toEqual({
      'COM_FUSO.jpg': '2026-11-21T22:30:00.000Z',
      'SEM_FUSO.jpg': '2026-11-21T23:15:00.000Z',
      'DEPOIS.jpg': '2026-11-22T02:10:00.000Z',
    })
    for (const body of inits) expect(body).not.toHaveProperty('momentId')
    const records = (await admin('GET', '/api/admin/uploads?status=all&limit=50')).body.items as { fileName: string, momentId: string | null, takenAt: string | null }[]
    const byName = Object.fromEntries(records.map(record => [record.fileName, record]))
    expect([byName['COM_FUSO.jpg']!.momentId, byName['COM_FUSO.jpg']!.takenAt]).toEqual([ceremony, '2026-11-21T22:30:00.000Z'])
    expect(byName['SEM_FUSO.jpg']!.momentId).toBe(ceremony)
    expect([byName['DEPOIS.jpg']!.momentId, byName['DEPOIS.jpg']!.takenAt]).toEqual([null, '2026-11-22T02:10:00.000Z'])
  })
})
