import PDFDocument from 'pdfkit'
import { and, eq, isNotNull, inArray, desc } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import type { EventSettingsRow } from '../../../db/schema'
import type { Language } from '#shared/enums'
import { CARD_WORDS, type CardFonts } from '../qr/card'
import { darkRuns, QR_QUIET_ZONE_MODULES, qrMatrix } from '../qr/render'
import { guestbookRows, type GuestbookEntryRow } from './list'

/** A5 portrait, in points. */
const PAGE = { width: 419.53, height: 595.28 }
const MARGIN = 42
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN
const INK = '#222222'
const MUTED = '#65545a'
const ACCENT = '#7a3e48'
const PHOTO_SIDE = 110
const QR_SIDE = 78
/** A book of this many messages at most: more than any wedding writes. */
const BOOK_MAX_MESSAGES = 5000
/** Times in the book are the venue's: Brazil's (no daylight saving since 2019). */
const TIME_ZONE = 'America/Sao_Paulo'

interface BookWords {
  title: string
  /** The file's name when downloaded. */
  fileName: string
  voice: (author: string, seconds: number) => string
  anonymous: string
  scan: string
  empty: string
  /** The locale of each message's date and time. */
  locale: string
}

/** The book speaks the event's language, as the QR card does (qr/card.ts CARD_WORDS). */
export const BOOK_WORDS: Record<Language, BookWords> = {
  'pt-BR': {
    title: 'Livro de recados',
    fileName: 'livro-de-recados.pdf',
    voice: (author, seconds) => `Recado de voz${author ? ` de ${author}` : ''}, ${clock(seconds)}`,
    anonymous: 'Um convidado',
    scan: 'Aponte a câmera para ouvir',
    empty: 'Nenhum recado aprovado ainda.',
    locale: 'pt-BR',
  },
  'en': {
    title: 'Guestbook',
    fileName: 'guestbook.pdf',
    voice: (author, seconds) => `Voice message${author ? ` from ${author}` : ''}, ${clock(seconds)}`,
    anonymous: 'A guest',
    scan: 'Point your camera to listen',
    empty: 'No approved messages yet.',
    locale: 'en-US',
  },
  'es': {
    title: 'Libro de mensajes',
    fileName: 'libro-de-mensajes.pdf',
    voice: (author, seconds) => `Mensaje de voz${author ? ` de ${author}` : ''}, ${clock(seconds)}`,
    anonymous: 'Un invitado',
    scan: 'Apunta la cámara para escuchar',
    empty: 'Todavía no hay mensajes aprobados.',
    locale: 'es',
  },
}

function clock(seconds: number): string {
  const total = Math.round(seconds)
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`
}

const timeFormatOf = (locale: string) => new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' })

interface FontWithGlyphs { hasGlyphForCodePoint: (codePoint: number) => boolean }

/**
 * The text as the book's typeface can draw it: characters it has no glyph for (emoji, other
 * scripts) are left out, with the joiners and variation selectors that only make sense beside
 * them, rather than printed as boxes; the spaces they leave are closed up.
 */
export function drawableText(text: string, font: FontWithGlyphs): string {
  const kept = [...text].filter((character) => {
    const codePoint = character.codePointAt(0)!
    if (character === '\n') return true
    return font.hasGlyphForCodePoint(codePoint)
  }).join('')
  return kept.replace(/[ \t]{2,}/g, ' ').replace(/ +\n/g, '\n').trim()
}

/** One approved photo of each author (exact name), to print beside their message: their newest. */
async function photosByAuthor(authors: string[]): Promise<Map<string, string>> {
  const named = [...new Set(authors.filter(Boolean))]
  if (named.length === 0) return new Map()
  const rows = await useDb().select({ author: uploads.author, displayKey: uploads.displayKey }).from(uploads)
    .where(and(eq(uploads.status, 'approved'), eq(uploads.kind, 'photo'), isNotNull(uploads.confirmedAt), isNotNull(uploads.displayKey), inArray(uploads.author, named)))
    .orderBy(desc(uploads.createdAt))
  const photos = new Map<string, string>()
  for (const row of rows) if (!photos.has(row.author)) photos.set(row.author, row.displayKey!)
  return photos
}

async function readObject(key: string): Promise<Buffer | null> {
  const store = useMediaStore()
  const head = await store.head(key)
  if (!head || head.size === 0) return null
  return store.readRange(key, 0, head.size - 1)
}

function drawQr(doc: PDFKit.PDFDocument, url: string, left: number, top: number, side: number) {
  const matrix = qrMatrix(url)
  const modules = matrix.size + 2 * QR_QUIET_ZONE_MODULES
  const unit = side / modules
  doc.rect(left, top, side, side).fill('#ffffff')
  for (const run of darkRuns(matrix)) {
    doc.rect(left + (run.col + QR_QUIET_ZONE_MODULES) * unit, top + (run.row + QR_QUIET_ZONE_MODULES) * unit, run.length * unit, unit)
  }
  doc.fill('#000000')
}

/** Every approved message, oldest first: the book reads in the order the night went. */
async function approvedMessages(): Promise<GuestbookEntryRow[]> {
  return (await guestbookRows({ status: 'approved' }, undefined, BOOK_MAX_MESSAGES)).reverse()
}

/**
 * The couple's book: a title page (names, date), then each approved message with its author and
 * time; a spoken one as "Recado de voz de …, 0:42" with a QR code to its recording; beside a
 * message, one approved photo of the same author where there is one. The card's typeface (Lora).
 */
export async function renderGuestbookPdf(settings: Pick<EventSettingsRow, 'coupleNames' | 'eventDate' | 'language'>, cardFonts: CardFonts): Promise<Buffer> {
  const words = BOOK_WORDS[settings.language]
  const timeFormat = timeFormatOf(words.locale)
  const messages = await approvedMessages()
  const photos = await photosByAuthor(messages.map(message => message.author))
  const doc = new PDFDocument({ size: [PAGE.width, PAGE.height], margin: MARGIN, font: null, info: { Title: [words.title, settings.coupleNames].filter(Boolean).join(' — ') } } as unknown as PDFKit.PDFDocumentOptions)
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.registerFont('regular', Buffer.from(cardFonts.regular))
  doc.registerFont('bold', Buffer.from(cardFonts.bold))
  const glyphs = (name: 'regular' | 'bold') => {
    doc.font(name)
    return (doc as unknown as { _font: { font: FontWithGlyphs } })._font.font
  }
  const regular = glyphs('regular')
  const bold = glyphs('bold')

  // Title page.
  doc.font('bold').fontSize(30).fillColor(ACCENT)
  doc.text(words.title, MARGIN, PAGE.height / 3, { width: CONTENT_WIDTH, align: 'center' })
  const names = drawableText(settings.coupleNames, bold)
  if (names) doc.moveDown(0.6).fontSize(22).fillColor(INK).text(names, { width: CONTENT_WIDTH, align: 'center' })
  if (settings.eventDate) doc.moveDown(0.4).font('regular').fontSize(14).fillColor(MUTED).text(CARD_WORDS[settings.language].date(settings.eventDate), { width: CONTENT_WIDTH, align: 'center' })
  if (messages.length === 0) doc.moveDown(2).font('regular').fontSize(12).fillColor(MUTED).text(words.empty, { width: CONTENT_WIDTH, align: 'center' })

  for (const message of messages) {
    doc.addPage()
    const author = drawableText(message.author, bold) || words.anonymous
    const photoKey = message.author ? photos.get(message.author) : undefined
    const photo = photoKey ? await readObject(photoKey).catch(() => null) : null
    const textWidth = photo ? CONTENT_WIDTH - PHOTO_SIDE - 16 : CONTENT_WIDTH
    const top = MARGIN
    if (photo) doc.image(photo, MARGIN + CONTENT_WIDTH - PHOTO_SIDE, top, { fit: [PHOTO_SIDE, PHOTO_SIDE], align: 'center' })
    if (message.type === 'text') {
      doc.font('regular').fontSize(15).fillColor(INK)
      doc.text(drawableText(message.text ?? '', regular), MARGIN, top, { width: textWidth, lineGap: 3 })
    }
    else {
      doc.font('bold').fontSize(15).fillColor(INK)
      doc.text(drawableText(words.voice(message.author, message.durationSec ?? 0), bold) || words.voice('', message.durationSec ?? 0), MARGIN, top, { width: textWidth })
      if (message.storageKey) {
        const qrTop = doc.y + 10
        drawQr(doc, useMediaStore().publicUrl(message.storageKey), MARGIN, qrTop, QR_SIDE)
        doc.font('regular').fontSize(9).fillColor(MUTED).text(words.scan, MARGIN, qrTop + QR_SIDE + 4, { width: textWidth })
      }
    }
    doc.moveDown(1).font('bold').fontSize(12).fillColor(ACCENT).text(`— ${author}`, MARGIN, Math.max(doc.y, photo ? top + PHOTO_SIDE : 0) + 8, { width: CONTENT_WIDTH })
    doc.font('regular').fontSize(10).fillColor(MUTED).text(timeFormat.format(message.createdAt), { width: CONTENT_WIDTH })
  }
  doc.end()
  return done
}
