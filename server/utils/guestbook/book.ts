import type { ServerResponse } from 'node:http'
import type { H3Event } from 'h3'
import { and, eq, isNotNull, inArray, desc } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import type { Language } from '#shared/enums'
import { formatMoment } from '#shared/messages/format'
import { createPdfDocument } from '../pdf/document'
import { embedFontsInTurns, forgetLayouts } from '../pdf/embedded-fonts'
import { openPdfFonts, registerPdfFonts } from '../pdf/fonts'
import { CARD_WORDS } from '../qr/card'
import { BOOK_MARGINS, BOOK_PAGE, bookTypesetter, type BookFont, type OpenedImage } from './book-pages'
import { guestbookPagesOldestFirst, type GuestbookEntryRow } from './list'

/** Messages read from the database at a time: the book holds one such page in memory, however long the guestbook. */
const ROWS_PER_READ = 250
/**
 * The longest the book works before letting the server answer others (gallery polls, uploads):
 * typesetting thousands of messages in one go held every other request for seconds.
 */
const WORK_SLICE_MS = 20
/** Authors' photos kept opened at once: a guest who wrote several messages has one photo embedded once. */
const PHOTOS_KEPT = 64
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

/** The newest approved photo of each named author among `authors` (exact name), by its display image's key. */
async function photoKeysOf(authors: string[]): Promise<Map<string, string>> {
  const named = [...new Set(authors.filter(Boolean))]
  if (named.length === 0) return new Map()
  const rows = await useDb().select({ author: uploads.author, displayKey: uploads.displayKey }).from(uploads)
    .where(and(eq(uploads.status, 'approved'), eq(uploads.kind, 'photo'), isNotNull(uploads.confirmedAt), isNotNull(uploads.displayKey), inArray(uploads.author, named)))
    .orderBy(desc(uploads.createdAt))
  const keys = new Map<string, string>()
  for (const row of rows) if (!keys.has(row.author)) keys.set(row.author, row.displayKey!)
  return keys
}

async function readObject(key: string): Promise<Buffer | null> {
  const store = useMediaStore()
  const head = await store.head(key)
  if (!head || head.size === 0) return null
  return store.readRange(key, 0, head.size - 1)
}

/** Opened photos by key, the least recently drawn let go first; a photo that cannot be read or opened is left out. */
function photoShelf(doc: PDFKit.PDFDocument) {
  const opened = new Map<string, OpenedImage | null>()
  return async (key: string | undefined): Promise<OpenedImage | null> => {
    if (!key) return null
    if (opened.has(key)) {
      const photo = opened.get(key)!
      opened.delete(key)
      opened.set(key, photo)
      return photo
    }
    const bytes = await readObject(key).catch(() => null)
    let photo: OpenedImage | null = null
    try {
      photo = bytes ? (doc as unknown as { openImage: (bytes: Buffer) => OpenedImage }).openImage(bytes) : null
    }
    catch { /* not an image PDFKit reads: the message goes without */ }
    opened.set(key, photo)
    if (opened.size > PHOTOS_KEPT) opened.delete(opened.keys().next().value!)
    return photo
  }
}

const nextTurn = () => new Promise(resolve => setImmediate(resolve))

/**
 * What PDFKit writes, handed to the response in one piece per pause instead of as its many small
 * pieces (one per PDF object line: every one would be a chunk of its own on the wire); between two
 * messages, a wait for the client to take what was written (so the book never piles up in memory)
 * and, once the work has held the event loop for a slice, a turn of it for the other requests.
 */
function paced(doc: PDFKit.PDFDocument, res: ServerResponse) {
  let written: Buffer[] = []
  doc.on('data', (chunk: Buffer) => written.push(chunk))
  const flush = () => {
    if (written.length === 0 || res.destroyed) return
    res.write(written.length === 1 ? written[0] : Buffer.concat(written))
    written = []
  }
  let since = performance.now()
  return {
    flush,
    async pause() {
      if (performance.now() - since < WORK_SLICE_MS) return
      flush()
      if (res.writableNeedDrain) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done)
            res.off('close', done)
            resolve()
          }
          res.on('drain', done)
          res.on('close', done)
        })
      }
      await nextTurn()
      since = performance.now()
    },
  }
}

/** The typeface, opened once for the server's life (pdf/fonts.ts), registered in this book. */
async function useBookFonts(doc: PDFKit.PDFDocument): Promise<Record<BookFont, FontWithGlyphs>> {
  const fonts = await openPdfFonts()
  registerPdfFonts(doc, fonts)
  // Opened in the document now, the regular first: the faces keep their names in the file (F1, F2)
  // whichever the first page sets.
  doc.font('regular')
  doc.font('bold')
  return fonts
}

/**
 * Ends the document. Embedding the fonts is the longest step of PDFKit's end: done first, a turn
 * of the event loop between one font and the next.
 */
async function endBook(doc: PDFKit.PDFDocument) {
  await embedFontsInTurns(doc, nextTurn)
  doc.end()
}

/**
 * Streams the couple's book: a title page (names, date), then every approved message, oldest
 * first, several to a page (book-pages.ts), with its author and time; a spoken one as "Recado de
 * voz de …, 0:42" with a QR code to its recording; beside a message, the newest approved photo of
 * the same author where there is one. In the card's typeface (Lora), in the event's language.
 * Written as it is set, a page of messages read at a time: memory stays flat however long the book.
 */
export async function sendGuestbookPdf(event: H3Event): Promise<void> {
  const settings = await getEventSettings()
  const words = BOOK_WORDS[settings.language]
  const reads = guestbookPagesOldestFirst({ status: 'approved' }, ROWS_PER_READ)
  // The first read before any byte: a database that does not answer is an ordinary error.
  let read = await reads.next()

  const res = event.node.res
  // Chrome's PDF viewer is a plugin that the API's restrictive policy would block.
  res.removeHeader('content-security-policy')
  setResponseHeaders(event, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${words.fileName}"`,
    'cache-control': 'private, no-store',
  })
  let clientGone = false
  res.once('close', () => {
    if (!res.writableFinished) clientGone = true
  })
  const doc = createPdfDocument({ size: [BOOK_PAGE.width, BOOK_PAGE.height], margins: BOOK_MARGINS, info: { Title: [words.title, settings.coupleNames].filter(Boolean).join(' — ') } })
  const ended = new Promise<void>((resolve, reject) => {
    doc.once('end', resolve)
    doc.once('error', reject)
  })
  const output = paced(doc, res)
  const { regular, bold } = await useBookFonts(doc)

  const book = bookTypesetter(doc, words.scan)
  const date = settings.eventDate ? CARD_WORDS[settings.language].date(settings.eventDate) : ''
  book.titlePage(words.title, drawableText(settings.coupleNames, bold), date, read.done ? words.empty : null)
  const photoOf = photoShelf(doc)
  try {
    while (!read.done) {
      const photoKeys = await photoKeysOf(read.value.map(message => message.author))
      for (const message of read.value) {
        if (clientGone) return
        book.message({
          ...bookBody(message, words, regular, bold),
          signature: `— ${drawableText(message.author, bold) || words.anonymous}`,
          time: formatMoment(words.locale, message.createdAt, TIME_ZONE),
          photo: await photoOf(photoKeys.get(message.author)),
        })
        await output.pause()
      }
      forgetLayouts(doc)
      read = await reads.next()
    }
    await endBook(doc)
    await ended
    output.flush()
    await new Promise<void>(resolve => res.end(resolve))
  }
  catch (error) {
    if (clientGone) return
    // Mid-stream: break the connection so the download fails visibly instead of ending as a
    // shorter book that looks complete.
    console.error('[guestbook book] failed mid-stream:', error instanceof Error ? error.message : error)
    res.destroy(error instanceof Error ? error : undefined)
  }
}

/** A message's words in the book: its text, or for a spoken one its line and where the QR code leads. */
function bookBody(message: GuestbookEntryRow, words: BookWords, regular: FontWithGlyphs, bold: FontWithGlyphs) {
  if (message.type === 'text') return { body: drawableText(message.text ?? '', regular), spoken: false, recordingUrl: null }
  const seconds = message.durationSec ?? 0
  return {
    body: drawableText(words.voice(message.author, seconds), bold) || words.voice('', seconds),
    spoken: true,
    recordingUrl: message.storageKey ? useMediaStore().publicUrl(message.storageKey) : null,
  }
}
