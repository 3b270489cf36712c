import type { Language } from '#shared/enums'
import { createPdfDocument } from '../pdf/document'
import { registerPdfFonts, type PdfFonts } from '../pdf/fonts'
import { darkRuns, QR_QUIET_ZONE_MODULES, type QrMatrix } from './render'
import { BRAND_COLOUR } from '#shared/brand'

/** What the printed card says besides the code itself. */
export interface QrCardText {
  /** The couple's names as configured; may be empty. */
  coupleNames: string
  /** `YYYY-MM-DD` or null. */
  eventDate: string | null
  /** When the event settings were last changed: the PDF's creation date, so equal inputs give equal bytes. */
  issuedAt: Date
  /** The language the card speaks. */
  language: Language
}

/**
 * The card's words in each language, as the admin's Event tab shows them (`share.cardInstruction`
 * in shared/messages/admin.*.ts). Kept here, with the layout they are measured for: the server
 * needs no page's texts to draw it.
 */
export const CARD_WORDS: Record<Language, { instruction: string, date: (isoDate: string) => string }> = {
  'pt-BR': { instruction: 'Aponte a câmera', date: formatBrazilianDate },
  'en': { instruction: 'Point your camera', date: formatEnglishDate },
  'es': { instruction: 'Apunta la cámara', date: formatBrazilianDate },
}

/** A6 portrait, in points (api-contract.md: 297.64 × 419.53 pt). */
const PAGE = { width: 297.64, height: 419.53 }
const MARGIN = 22
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN
/**
 * Side of the code including its quiet zone: about 8.5 cm, so a phone finds it from arm's length
 * (a code reads from roughly ten times its width).
 */
const QR_MAX_SIDE = 240
const INK = '#222222'

/** `2026-12-12` → `12/12/2026` (Brazilian dd/mm/aaaa), by the digits: no time zone can shift the day. */
export function formatBrazilianDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-')
  return `${day}/${month}/${year}`
}

const ENGLISH_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** `2026-12-12` → `December 12, 2026`, by the digits like the others. */
export function formatEnglishDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-')
  return `${ENGLISH_MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`
}

/** The address as a person would type it: no scheme, no lone trailing slash. */
export function shortAddress(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/^([^/?#]*)\/$/, '$1')
}

/** The largest size, from `max` down to `min`, at which `text` fits in `lines` lines. */
function fittingSize(doc: PDFKit.PDFDocument, text: string, max: number, min: number, lines: number): number {
  for (let size = max; size > min; size -= 1) {
    doc.fontSize(size)
    if (doc.heightOfString(text, { width: CONTENT_WIDTH, align: 'center' }) <= doc.currentLineHeight(true) * lines + 0.5) return size
  }
  return min
}

/**
 * One A6 page: the couple's names, the date when set, the code, the instruction and the address in
 * words for anyone whose camera will not read it.
 */
export function renderQrCardPdf(matrix: QrMatrix, url: string, card: QrCardText, cardFonts: PdfFonts): Promise<Buffer> {
  const doc = createPdfDocument({
    size: [PAGE.width, PAGE.height],
    info: { Title: [card.coupleNames, CARD_WORDS[card.language].instruction].filter(Boolean).join(' — '), CreationDate: card.issuedAt },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  registerPdfFonts(doc, cardFonts)

  let y = MARGIN + 6
  if (card.coupleNames) {
    doc.font('bold').fillColor(BRAND_COLOUR)
    doc.fontSize(fittingSize(doc, card.coupleNames, 24, 12, 2))
    doc.text(card.coupleNames, MARGIN, y, { width: CONTENT_WIDTH, align: 'center', height: doc.currentLineHeight(true) * 2, ellipsis: true })
    y = doc.y + 2
  }
  if (card.eventDate) {
    doc.font('regular').fontSize(13).fillColor(INK)
    doc.text(CARD_WORDS[card.language].date(card.eventDate), MARGIN, y, { width: CONTENT_WIDTH, align: 'center' })
    y = doc.y
  }

  const address = shortAddress(url)
  const instructionSize = 16
  const addressSize = 9.5
  const bottomBlock = instructionSize * 1.3 + addressSize * 1.3 + 4
  const available = PAGE.height - MARGIN - bottomBlock - y
  const side = Math.min(QR_MAX_SIDE, CONTENT_WIDTH, available)
  const qrTop = y + (available - side) / 2
  const qrLeft = (PAGE.width - side) / 2
  const modules = matrix.size + 2 * QR_QUIET_ZONE_MODULES
  const unit = side / modules
  doc.rect(qrLeft, qrTop, side, side).fill('#ffffff')
  for (const run of darkRuns(matrix)) {
    doc.rect(
      qrLeft + (run.col + QR_QUIET_ZONE_MODULES) * unit,
      qrTop + (run.row + QR_QUIET_ZONE_MODULES) * unit,
      run.length * unit,
      unit,
    )
  }
  doc.fill('#000000')

  y = qrTop + side
  doc.font('bold').fontSize(instructionSize).fillColor(INK)
  doc.text(CARD_WORDS[card.language].instruction, MARGIN, y, { width: CONTENT_WIDTH, align: 'center' })
  doc.font('regular').fontSize(addressSize).fillColor(INK)
  // An admin's override may be long: one line, cut with an ellipsis, so the page never overflows.
  doc.text(address, MARGIN, doc.y + 2, { width: CONTENT_WIDTH, align: 'center', height: doc.currentLineHeight(true), ellipsis: true, lineBreak: false })
  doc.end()
  return done
}
