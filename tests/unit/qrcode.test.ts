import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { qrcodeQuerySchema } from '../../shared/schemas/qrcode'
import { formatBrazilianDate, formatEnglishDate, renderQrCardPdf, shortAddress } from '../../server/utils/qr/card'
import type { PdfFonts } from '../../server/utils/pdf/fonts'
import { matchesIfNoneMatch } from '../../server/utils/http/conditional'
import { qrEtag, renderQrCode, type QrRequest } from '../../server/utils/qr/code'
import { qrMatrix, renderQrPng } from '../../server/utils/qr/render'
import { defaultQrTarget, isOnSite, parseQrUrl } from '../../server/utils/qr/target'
import { pdfInfo, pdfText } from '../support/qr'

const loraFiles = join(dirname(createRequire(import.meta.url).resolve('@fontsource/lora/LICENSE')), 'files')
const fonts: PdfFonts = {
  regular: readFileSync(join(loraFiles, 'lora-latin-400-normal.woff')),
  bold: readFileSync(join(loraFiles, 'lora-latin-700-normal.woff')),
}
const card = { coupleNames: 'Ana & João', eventDate: '2026-12-12', issuedAt: new Date('2026-11-22T18:04:05.123Z'), language: 'pt-BR' as const }
const site = { requestOrigin: 'http://localhost:3000', publicBaseUrl: 'https://fotos.example.com/base' }

describe('qrcode query', () => {
  it('defaults to png and refuses unknown formats, repeated values and unknown fields', () => {
    expect(qrcodeQuerySchema.parse({})).toEqual({ format: 'png' })
    expect(qrcodeQuerySchema.safeParse({ format: 'gif' }).success).toBe(false)
    expect(qrcodeQuerySchema.safeParse({ format: ['svg', 'pdf'] }).success).toBe(false)
    expect(qrcodeQuerySchema.safeParse({ size: '10' }).success).toBe(false)
  })
})

describe('QR target', () => {
  it('defaults to the origin + /enviar', () => {
    expect(defaultQrTarget('https://fotos.example.com')).toBe('https://fotos.example.com/enviar')
  })

  it('accepts absolute http(s) URLs of at most 2,048 characters, normalised', () => {
    expect(parseQrUrl('HTTPS://Fotos.Example.com/enviar')?.href).toBe('https://fotos.example.com/enviar')
    const long = `https://a.example/${'x'.repeat(2048 - 'https://a.example/'.length)}`
    expect(parseQrUrl(long)?.href).toBe(long)
    expect(parseQrUrl(`${long}x`)).toBeNull()
  })

  it('refuses other schemes, relative addresses, and URLs that percent-encoding pushes over the limit', () => {
    for (const raw of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://a.example/', '/enviar', '', 'http://']) {
      expect(parseQrUrl(raw), raw).toBeNull()
    }
    const accents = `https://a.example/${'é'.repeat(1000)}` // each one becomes %C3%A9
    expect(accents.length).toBeLessThanOrEqual(2048)
    expect(parseQrUrl(accents)).toBeNull()
  })

  it('counts the request origin and PUBLIC_BASE_URL\'s origin as this site, and nothing else', () => {
    expect(isOnSite(new URL('http://localhost:3000/x'), site)).toBe(true)
    expect(isOnSite(new URL('https://fotos.example.com/other'), site)).toBe(true)
    expect(isOnSite(new URL('https://fotos.example.com:443/'), site)).toBe(true)
    expect(isOnSite(new URL('http://fotos.example.com/'), site)).toBe(false)
    expect(isOnSite(new URL('http://localhost:3001/'), site)).toBe(false)
    expect(isOnSite(new URL('https://fotos.example.com.evil.example/'), site)).toBe(false)
    expect(isOnSite(new URL('http://bank.example@localhost:3000/'), site)).toBe(false)
  })
})

describe('QR symbol', () => {
  it('uses level H when it costs nothing over Q, Q otherwise, and M only for addresses too long for Q', () => {
    expect(['Q', 'H']).toContain(qrMatrix('https://fotos.example.com/enviar').level)
    expect(qrMatrix(`https://a.example/${'x'.repeat(1500)}`).level).toBe('Q')
    expect(qrMatrix(`https://a.example/${'x'.repeat(2000)}`).level).toBe('M')
  })

  it('draws an 800 × 800 PNG for every symbol size, even where fractional scaling would give 799', async () => {
    for (const length of [20, 400, 900]) { // versions 2, 18 and 34 among others
      const png = await renderQrPng(qrMatrix(`https://a.example/${'x'.repeat(length)}`))
      expect(png.readUInt32BE(16)).toBe(800) // IHDR width
      expect(png.readUInt32BE(20)).toBe(800) // IHDR height
    }
  })
})

describe('printed card', () => {
  it('writes the date as dd/mm/aaaa and the address without its scheme', () => {
    expect(formatBrazilianDate('2026-12-01')).toBe('01/12/2026')
    expect(formatEnglishDate('2026-12-01')).toBe('December 1, 2026')
    expect(shortAddress('https://fotos.example.com/enviar')).toBe('fotos.example.com/enviar')
    expect(shortAddress('http://fotos.example.com/')).toBe('fotos.example.com')
  })

  it('is byte-for-byte the same for the same inputs, which is what makes its ETag honest', async () => {
    const request: QrRequest = { format: 'pdf', url: 'https://fotos.example.com/enviar', card }
    const a = await renderQrCardPdf(qrMatrix(request.url), request.url, card, fonts)
    const b = await renderQrCardPdf(qrMatrix(request.url), request.url, card, fonts)
    expect(a.equals(b)).toBe(true)
  })

  it('stays on one page with long names and a long address', async () => {
    const url = `https://fotos.example.com/${'caminho/'.repeat(200)}`
    const longCard = { ...card, coupleNames: 'Maria Conceição Albuquerque de Araújo & João Sebastião Gonçalves Nogueira Júnior' }
    const pdf = await renderQrCardPdf(qrMatrix(url), url, longCard, fonts)
    expect(pdfInfo(pdf).Pages).toBe('1')
    expect(pdfText(pdf)).toContain('Aponte a câmera')
  })
})

describe('QR caching', () => {
  it('ties the ETag to every input of the rendering', () => {
    const base: QrRequest = { format: 'pdf', url: 'https://a.example/enviar', card }
    const tag = qrEtag(base)
    expect(qrEtag({ ...base })).toBe(tag)
    expect(qrEtag({ ...base, url: 'https://b.example/enviar' })).not.toBe(tag)
    expect(qrEtag({ ...base, card: { ...card, coupleNames: 'Ana & Bruno' } })).not.toBe(tag)
    expect(qrEtag({ ...base, card: { ...card, eventDate: null } })).not.toBe(tag)
    expect(qrEtag({ ...base, card: { ...card, language: 'en' } })).not.toBe(tag)
    expect(qrEtag({ format: 'png', url: base.url })).not.toBe(qrEtag({ format: 'svg', url: base.url }))
  })

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false)
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true)
    expect(matchesIfNoneMatch('"x", W/"a"', '"a"')).toBe(true)
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true)
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false)
  })

  it('renders PNG and SVG the same way twice', async () => {
    const url = 'https://a.example/enviar'
    const [png1, png2] = [await renderQrCode({ format: 'png', url }), await renderQrCode({ format: 'png', url })]
    expect((png1.body as Buffer).equals(png2.body as Buffer)).toBe(true)
    expect((await renderQrCode({ format: 'svg', url })).body).toBe((await renderQrCode({ format: 'svg', url })).body)
  })
})
