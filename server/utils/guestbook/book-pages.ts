import { darkRuns, QR_QUIET_ZONE_MODULES, qrMatrix } from '../qr/render'

/** A5 portrait, in points. */
export const BOOK_PAGE = { width: 419.53, height: 595.28 }
const MARGIN = { top: 48, bottom: 62, left: 42, right: 42 }
const CONTENT_WIDTH = BOOK_PAGE.width - MARGIN.left - MARGIN.right
/** The lowest a line may end: below it sits the page number. */
const CONTENT_BOTTOM = BOOK_PAGE.height - MARGIN.bottom
const CONTENT_HEIGHT = CONTENT_BOTTOM - MARGIN.top
const FOLIO_Y = BOOK_PAGE.height - 38
const INK = '#222222'
const MUTED = '#65545a'
const ACCENT = '#7a3e48'
const PHOTO_SIDE = 84
const PHOTO_GAP = 14
const QR_SIDE = 64
/** The space between two messages; a short rule sits in its middle. */
const MESSAGE_GAP = 26
const RULE_WIDTH = 36
const LINE_GAP = 3

export type BookFont = 'regular' | 'bold'
interface Style { font: BookFont, size: number, color: string }

const STYLES = {
  text: { font: 'regular', size: 12, color: INK },
  voice: { font: 'bold', size: 12, color: INK },
  scan: { font: 'regular', size: 8, color: MUTED },
  author: { font: 'bold', size: 10.5, color: ACCENT },
  time: { font: 'regular', size: 8.5, color: MUTED },
  folio: { font: 'regular', size: 8.5, color: MUTED },
} satisfies Record<string, Style>

export const BOOK_MARGINS = MARGIN

/**
 * An image PDFKit has opened (`openImage`, which @types/pdfkit leaves out): drawn as often as
 * needed, embedded in the file once.
 */
export interface OpenedImage { width: number, height: number }

/** One message as the book prints it: every text already in the typeface's glyphs. */
export interface BookMessage {
  /** The written text, or for a spoken one its line ("Recado de voz de …, 0:42"). */
  body: string
  spoken: boolean
  /** Where the QR code of a spoken one leads (its recording), if it has one. */
  recordingUrl: string | null
  /** "— Name", and the time it was sent. */
  signature: string
  time: string
  /** The author's photo, opened by the document (PDFKit embeds an opened image once however often it is drawn). */
  photo: OpenedImage | null
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

/**
 * Sets the book's messages one after another, as many to a page as fit: a message is never split
 * across two pages (one that does not fit in what is left of a page starts the next), except one
 * too long for any page, which starts on a fresh page and runs on over the next. A short rule
 * parts two messages on a page; every page after the title carries its number at the foot.
 */
export function bookTypesetter(doc: PDFKit.PDFDocument, scanWords: string) {
  let style: Style = STYLES.text
  /** Whether a page of messages is open (not the title page), and how many messages it holds. */
  let pageOpen = false
  let onPage = 0
  const use = (next: Style) => {
    style = next
    doc.font(next.font, next.size).fillColor(next.color)
  }

  // PDFKit opens a page itself when a long text runs past the foot: the number goes on every page
  // opened after the title, whoever opened it, and the text then goes on in its own style.
  let pages = 1
  doc.on('pageAdded', () => {
    pages++
    const { x, y } = doc
    const running = style
    use(STYLES.folio)
    // Outside the margins PDFKit would open yet another page for the number: lift the foot for it.
    doc.page.margins.bottom = 0
    doc.text(String(pages), MARGIN.left, FOLIO_Y, { width: CONTENT_WIDTH, align: 'center', lineBreak: false })
    doc.page.margins.bottom = MARGIN.bottom
    use(running)
    doc.x = x
    doc.y = y
  })

  const height = (text: string, of: Style, width: number) => {
    use(of)
    return doc.heightOfString(text, { width, lineGap: LINE_GAP })
  }

  function photoHeight(photo: OpenedImage | null): number {
    if (!photo) return 0
    return photo.height * Math.min(PHOTO_SIDE / photo.width, PHOTO_SIDE / photo.height)
  }

  function columnHeight(message: BookMessage, width: number): number {
    let total = height(message.body, message.spoken ? STYLES.voice : STYLES.text, width)
    if (message.recordingUrl) total += 8 + QR_SIDE + 4 + height(scanWords, STYLES.scan, width)
    return total + 6 + height(message.signature, STYLES.author, width) + 1 + height(message.time, STYLES.time, width)
  }

  function newPage() {
    doc.addPage()
    pageOpen = true
    onPage = 0
  }

  /** Where the next message starts, a fresh page or below a rule, given how tall it is. */
  function placeFor(blockHeight: number): number {
    if (pageOpen && onPage > 0 && doc.y + MESSAGE_GAP + blockHeight <= CONTENT_BOTTOM) {
      const ruleY = doc.y + MESSAGE_GAP / 2
      doc.save().moveTo((BOOK_PAGE.width - RULE_WIDTH) / 2, ruleY).lineTo((BOOK_PAGE.width + RULE_WIDTH) / 2, ruleY)
        .lineWidth(0.6).strokeColor(ACCENT).strokeOpacity(0.5).stroke().restore()
      return doc.y + MESSAGE_GAP
    }
    newPage()
    return MARGIN.top
  }

  return {
    /** The book's first page: its title, the couple, the date, or a word that it is empty. */
    titlePage(title: string, names: string, date: string, empty: string | null) {
      doc.font('bold').fontSize(30).fillColor(ACCENT)
      doc.text(title, MARGIN.left, BOOK_PAGE.height / 3, { width: CONTENT_WIDTH, align: 'center' })
      if (names) doc.moveDown(0.6).fontSize(22).fillColor(INK).text(names, { width: CONTENT_WIDTH, align: 'center' })
      if (date) doc.moveDown(0.4).font('regular').fontSize(14).fillColor(MUTED).text(date, { width: CONTENT_WIDTH, align: 'center' })
      const ruleY = doc.y + 18
      doc.save().moveTo((BOOK_PAGE.width - 2 * RULE_WIDTH) / 2, ruleY).lineTo((BOOK_PAGE.width + 2 * RULE_WIDTH) / 2, ruleY)
        .lineWidth(0.8).strokeColor(ACCENT).stroke().restore()
      if (empty) doc.text('', MARGIN.left, ruleY + 18).font('regular').fontSize(12).fillColor(MUTED).text(empty, { width: CONTENT_WIDTH, align: 'center' })
    },

    message(message: BookMessage) {
      const photoSide = photoHeight(message.photo)
      const width = message.photo ? CONTENT_WIDTH - PHOTO_SIDE - PHOTO_GAP : CONTENT_WIDTH
      const blockHeight = Math.max(columnHeight(message, width), photoSide)
      let top: number
      if (blockHeight <= CONTENT_HEIGHT) top = placeFor(blockHeight)
      else {
        if (!pageOpen || onPage > 0) newPage()
        top = MARGIN.top
      }
      onPage++
      if (message.photo) doc.image(message.photo as unknown as PDFKit.Mixins.ImageSrc, MARGIN.left + CONTENT_WIDTH - PHOTO_SIDE, top, { fit: [PHOTO_SIDE, PHOTO_SIDE], align: 'right' })
      use(message.spoken ? STYLES.voice : STYLES.text)
      doc.text(message.body, MARGIN.left, top, { width, lineGap: LINE_GAP })
      if (message.recordingUrl) {
        const qrTop = doc.y + 8
        drawQr(doc, message.recordingUrl, MARGIN.left, qrTop, QR_SIDE)
        use(STYLES.scan)
        doc.text(scanWords, MARGIN.left, qrTop + QR_SIDE + 4, { width, lineGap: LINE_GAP })
      }
      use(STYLES.author)
      doc.text(message.signature, MARGIN.left, doc.y + 6, { width, lineGap: LINE_GAP })
      use(STYLES.time)
      doc.text(message.time, MARGIN.left, doc.y + 1, { width, lineGap: LINE_GAP })
      // Below the photo when it is the taller of the two, so the next message does not run into it.
      if (doc.y < top + photoSide && doc.y > top) doc.y = top + photoSide
    },
  }
}
