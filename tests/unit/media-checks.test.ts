import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkMediaFile as checkWith, contentTypeOf, readDurationFromHeader, type EventLimits } from '../../shared/media/checks'
import { ptBR } from '../../shared/messages/pt-BR'

const checkMediaFile = (f: File, l: EventLimits) => checkWith(f, l, readDurationFromHeader, ptBR)

const clip = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/clip-2s.mp4')))
const limits = { maxFileSizeBytes: 10_000_000, allowVideos: true, maxVideoDurationSec: 300 }
const file = (name: string, type: string, bytes: Uint8Array<ArrayBuffer> | number = 10) =>
  new File([typeof bytes === 'number' ? new Uint8Array(bytes) : bytes], name, { type })

describe('contentTypeOf', () => {
  it('keeps accepted types, HEIC included, and maps the aliases phones use', () => {
    expect(contentTypeOf({ name: 'a.jpg', type: 'image/jpeg' })).toBe('image/jpeg')
    expect(contentTypeOf({ name: 'IMG_1.HEIC', type: 'image/heic' })).toBe('image/heic')
    expect(contentTypeOf({ name: 'a.jpg', type: 'image/jpg' })).toBe('image/jpeg')
    expect(contentTypeOf({ name: 'a.m4v', type: 'video/x-m4v' })).toBe('video/mp4')
  })

  it('falls back to the extension when the browser gives no precise type', () => {
    expect(contentTypeOf({ name: 'IMG_1.HEIC', type: '' })).toBe('image/heic')
    expect(contentTypeOf({ name: 'VID.MOV', type: 'application/octet-stream' })).toBe('video/quicktime')
    expect(contentTypeOf({ name: 'clip.webm', type: '' })).toBe('video/webm')
  })

  it('refuses what the server refuses: SVG, HTML, unknown files', () => {
    expect(contentTypeOf({ name: 'a.svg', type: 'image/svg+xml' })).toBeNull()
    expect(contentTypeOf({ name: 'a.html', type: 'text/html' })).toBeNull()
    expect(contentTypeOf({ name: 'a.jpg', type: 'text/html' })).toBeNull()
    expect(contentTypeOf({ name: 'notes', type: '' })).toBeNull()
  })
})

describe('checkMediaFile', () => {
  it('accepts a photo and a video, reading the video\'s duration from the file itself', async () => {
    expect(await checkMediaFile(file('a.jpg', 'image/jpeg'), limits)).toEqual({ ok: true, contentType: 'image/jpeg', kind: 'photo', durationSec: null })
    const video = await checkMediaFile(file('v.mp4', 'video/mp4', clip), limits)
    expect(video).toMatchObject({ ok: true, contentType: 'video/mp4', kind: 'video' })
    expect(video.ok && video.durationSec).toBeCloseTo(2, 2)
  })

  it('refuses in plain words: too large, too long, videos off, unreadable duration, empty, wrong type', async () => {
    const reason = async (f: File, l = limits) => {
      const result = await checkMediaFile(f, l)
      return result.ok ? null : result.reason
    }
    expect(await reason(file('a.jpg', 'image/jpeg', 10_000_001))).toBe('É grande demais (9,5 MB). O limite é 9,5 MB por arquivo.')
    expect(await reason(file('v.mp4', 'video/mp4', clip), { ...limits, maxVideoDurationSec: 1 })).toBe('O vídeo é longo demais (2 segundos). O limite é 1 segundo.')
    expect(await reason(file('v.mp4', 'video/mp4', clip), { ...limits, allowVideos: false })).toBe('Nesta festa não estamos recebendo vídeos, só fotos.')
    expect(await reason(file('v.mp4', 'video/mp4', 500))).toMatch(/^Não conseguimos ler a duração/)
    expect(await reason(file('a.jpg', 'image/jpeg', 0))).toBe('O arquivo está vazio.')
    expect(await reason(file('a.svg', 'image/svg+xml'))).toMatch(/^Este tipo de arquivo não é aceito/)
  })
})
