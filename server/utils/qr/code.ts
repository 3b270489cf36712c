import { createHash } from 'node:crypto'
import type { EventSettingsRow } from '../../../db/schema'
import type { Language } from '#shared/enums'
import { fileSlug } from '#shared/file-slug'
import type { QrFormat } from '#shared/schemas/qrcode'
import { loadPdfFonts } from '../pdf/fonts'
import { renderQrCardPdf, type QrCardText } from './card'
import { qrMatrix, renderQrPng, renderQrSvg } from './render'

/** Everything a QR answer is made from: equal requests give equal bytes. */
export type QrRequest
  = | { format: 'png' | 'svg', url: string }
    | { format: 'pdf', url: string, card: QrCardText }

/**
 * Bump when the drawing changes (layout, font, level choice), so that caches holding the old
 * rendering see a new ETag.
 */
const RENDERING_VERSION = 1

const CONTENT_TYPES: Record<QrFormat, string> = {
  png: 'image/png',
  svg: 'image/svg+xml; charset=utf-8',
  pdf: 'application/pdf',
}

/**
 * PNG and SVG depend on the URL alone, which is part of the request: a few minutes in the
 * browser's cache is safe. The card carries the names and date, which an admin may have just
 * corrected: always revalidate (the ETag makes that a cheap 304). `private` because the default
 * address follows the Host header, which a shared cache must not pin for everyone.
 */
const CACHE_CONTROL: Record<QrFormat, string> = {
  png: 'private, max-age=300',
  svg: 'private, max-age=300',
  pdf: 'private, no-cache',
}

/** The event's settings, read once per request by the caller: the card's text and the file's name come from them. */
export function describeQrCode(format: QrFormat, url: string, settings: Pick<EventSettingsRow, 'coupleNames' | 'eventDate' | 'updatedAt' | 'language'>, language: Language = settings.language): QrRequest {
  if (format !== 'pdf') return { format, url }
  return {
    format,
    url,
    card: { coupleNames: settings.coupleNames, eventDate: settings.eventDate, issuedAt: settings.updatedAt, language },
  }
}

/**
 * The name a saved file gets, the same as the admin's download links give it (`qr-ana-e-joao.pdf`):
 * a link opened some other way (a new tab, another device) saves under the same name.
 */
export function qrFileName(format: QrFormat, coupleNames: string, language?: Language): string {
  return `qr-${fileSlug(coupleNames)}${language ? `-${language.toLowerCase()}` : ''}.${format}`
}

/**
 * A strong validator computed from the inputs rather than the output, so a conditional request is
 * answered 304 without drawing anything. It is sound because rendering is deterministic (a unit
 * test holds it to that). The file name is part of the answer (its content-disposition) too.
 */
export function qrEtag(request: QrRequest, fileName?: string): string {
  const inputs = request.format === 'pdf'
    ? [RENDERING_VERSION, request.format, request.url, request.card.coupleNames, request.card.eventDate, request.card.issuedAt.getTime(), request.card.language]
    : [RENDERING_VERSION, request.format, request.url]
  if (fileName) inputs.push(fileName)
  return `"qr-${createHash('sha256').update(JSON.stringify(inputs)).digest('base64url').slice(0, 32)}"`
}

export function qrCacheControl(format: QrFormat): string {
  return CACHE_CONTROL[format]
}

function responseHeaders(format: QrFormat, fileName: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPES[format],
    // fileSlug leaves only [a-z0-9-]: nothing to escape in the quoted name.
    'content-disposition': `inline; filename="${fileName}"`,
    'x-content-type-options': 'nosniff',
  }
  // An SVG opened on its own is a document of this origin: let it run and load nothing. (Not on
  // the PDF: Chrome's viewer is a plugin, which `default-src 'none'` would block.)
  if (format === 'svg') headers['content-security-policy'] = 'default-src \'none\''
  return headers
}

export async function renderQrCode(request: QrRequest, fileName = `qrcode.${request.format}`): Promise<{ headers: Record<string, string>, body: Buffer | string }> {
  const matrix = qrMatrix(request.url)
  const headers = responseHeaders(request.format, fileName)
  switch (request.format) {
    case 'png':
      return { headers, body: await renderQrPng(matrix) }
    case 'svg':
      return { headers, body: renderQrSvg(matrix) }
    case 'pdf':
      return { headers, body: await renderQrCardPdf(matrix, request.url, request.card, await loadPdfFonts()) }
  }
}
