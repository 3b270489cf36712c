import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { decodeQr, pdfPagePng, pdfText } from '../support/qr'

/** What each language says on the two guest pages: the title of /enviar and of /galeria. */
const WORDS = {
  'pt-BR': { enviar: 'Enviar fotos e vídeos', galeria: 'Galeria' },
  'en': { enviar: 'Share photos and videos', galeria: 'Gallery' },
  'es': { enviar: 'Enviar fotos y videos', galeria: 'Galería' },
} as const
type Language = keyof typeof WORDS

describe('every guest in their own language', () => {
  const server = useTestServer({ admin: true })

  async function page(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, { headers })
    expect(response.status).toBe(200)
    return response.text()
  }
  const htmlLang = (html: string) => /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1]
  const setEventLanguage = async (language: Language) =>
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { language } })).status).toBe(200)

  function expectSpeaks(html: string, language: Language, path: '/enviar' | '/galeria') {
    expect(htmlLang(html)).toBe(language)
    expect(html).toContain(WORDS[language][path === '/enviar' ? 'enviar' : 'galeria'])
    for (const other of Object.keys(WORDS) as Language[]) {
      if (other !== language && WORDS[other].enviar !== WORDS[language].enviar && path === '/enviar') expect(html).not.toContain(WORDS[other].enviar)
    }
  }

  for (const path of ['/enviar', '/galeria'] as const) {
    it(`${path} speaks English to Accept-Language: en, Spanish to es, the event's language to fr`, async () => {
      expectSpeaks(await page(path, { 'accept-language': 'en-US,en;q=0.9' }), 'en', path)
      expectSpeaks(await page(path, { 'accept-language': 'es-MX,es;q=0.9' }), 'es', path)
      expectSpeaks(await page(path, { 'accept-language': 'fr-FR,fr;q=0.9' }), 'pt-BR', path)
    })

    it(`${path}: ?lang=es wins over the header, and the switcher's cookie over both`, async () => {
      expectSpeaks(await page(`${path}?lang=es`, { 'accept-language': 'en' }), 'es', path)
      expectSpeaks(await page(`${path}?lang=es`, { 'accept-language': 'en', 'cookie': 'lang=en' }), 'en', path)
    })
  }

  it('the event\'s language speaks to a request that asks for no language, and to one asking for French', async () => {
    await setEventLanguage('en')
    try {
      expect((await api(server.url, '/api/event')).body.language).toBe('en')
      expectSpeaks(await page('/enviar'), 'en', '/enviar')
      expectSpeaks(await page('/galeria', { 'accept-language': 'fr' }), 'en', '/galeria')
      // A browser that asks for one of ours still gets it.
      expectSpeaks(await page('/enviar', { 'accept-language': 'pt-BR' }), 'pt-BR', '/enviar')
    }
    finally {
      await setEventLanguage('pt-BR')
    }
  })

  it('the page carries its language to the browser, so hydration speaks the language of the HTML', async () => {
    const html = await page('/enviar', { 'accept-language': 'es' })
    expect(html).toMatch(/"language"[^]*?"es"/)
  })

  describe('QR card and code', () => {
    const get = (params: Record<string, string>) => fetch(`${server.url}/api/qrcode?${new URLSearchParams(params)}`)

    it('prints the card in the language asked for: English says no "Aponte a câmera", Portuguese does', async () => {
      const english = await get({ format: 'pdf', lang: 'en' })
      expect(english.status).toBe(200)
      const englishText = pdfText(Buffer.from(await english.arrayBuffer()))
      expect(englishText).not.toContain('Aponte a câmera')
      expect(englishText).toContain('Point your camera')

      const portuguese = pdfText(Buffer.from(await (await get({ format: 'pdf', lang: 'pt-BR' })).arrayBuffer()))
      expect(portuguese).toContain('Aponte a câmera')
      const spanish = pdfText(Buffer.from(await (await get({ format: 'pdf', lang: 'es' })).arrayBuffer()))
      expect(spanish).toContain('Apunta la cámara')
    })

    it('prints the card in the event\'s language when none is asked for, and encodes no ?lang then', async () => {
      await setEventLanguage('es')
      try {
        const pdf = Buffer.from(await (await get({ format: 'pdf' })).arrayBuffer())
        expect(pdfText(pdf)).toContain('Apunta la cámara')
        expect(await decodeQr(pdfPagePng(pdf))).toBe(`${server.url}/enviar`)
      }
      finally {
        await setEventLanguage('pt-BR')
      }
    })

    it('encodes ?lang=xx when lang is given, in the PNG and in the card, beside an override\'s own query', async () => {
      const png = await get({ format: 'png', lang: 'en' })
      expect(png.status).toBe(200)
      expect(await decodeQr(Buffer.from(await png.arrayBuffer()))).toBe(`${server.url}/enviar?lang=en`)
      const card = await get({ format: 'pdf', lang: 'es', url: `${server.url}/enviar?origem=mesa` })
      expect(await decodeQr(pdfPagePng(Buffer.from(await card.arrayBuffer())))).toBe(`${server.url}/enviar?origem=mesa&lang=es`)
      expect(card.headers.get('content-disposition')).toContain('-es.pdf')
    })

    it('refuses a language it does not speak with 400 INVALID_REQUEST', async () => {
      const response = await api(server.url, '/api/qrcode?format=pdf&lang=fr')
      expect(response.status).toBe(400)
      expect(response.body.data.code).toBe('INVALID_REQUEST')
    })
  })

  it('names the installed app in the event\'s language', async () => {
    await setEventLanguage('en')
    try {
      const manifest = await api(server.url, '/manifest.webmanifest')
      expect(manifest.body).toMatchObject({ lang: 'en', description: 'Wedding photos' })
    }
    finally {
      await setEventLanguage('pt-BR')
    }
  })
})
