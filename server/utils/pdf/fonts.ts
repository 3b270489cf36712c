import { create, type Font } from 'fontkit'

/** The embedded typeface (Lora, from @fontsource/lora). Its "latin" subset covers Portuguese. */
export interface PdfFonts {
  regular: Uint8Array
  bold: Uint8Array
}

export type PdfFontName = keyof PdfFonts

const FONT_FILES: Record<PdfFontName, string> = { regular: 'lora-latin-400-normal.woff', bold: 'lora-latin-700-normal.woff' }
let fonts: Promise<PdfFonts> | undefined

/**
 * The font files travel inside the server bundle as Nitro server assets (nuxt.config.ts), so every
 * PDF renders the same on every preset, serverless ones included, without a file system.
 */
export function loadPdfFonts(): Promise<PdfFonts> {
  fonts ??= (async () => {
    const assets = useStorage('assets:fonts')
    const [regular, bold] = await Promise.all([assets.getItemRaw(FONT_FILES.regular), assets.getItemRaw(FONT_FILES.bold)])
    if (!regular || !bold) throw new Error('the PDF fonts are missing from the server bundle')
    return { regular: new Uint8Array(regular), bold: new Uint8Array(bold) }
  })()
  fonts.catch(() => (fonts = undefined))
  return fonts
}

let opened: Promise<Record<PdfFontName, Font>> | undefined

/**
 * The typeface opened by the font engine PDFKit uses (fontkit), kept for the server's life: PDFKit
 * takes an opened font wherever it takes a file (`registerFont`), and opening each WOFF file and
 * laying out its first line of text took some 50 ms of CPU, which every long document would
 * otherwise spend again. One font at a time, with a turn of the event loop between.
 */
export function openPdfFonts(): Promise<Record<PdfFontName, Font>> {
  opened ??= (async () => {
    const bytes = await loadPdfFonts()
    const result = {} as Record<PdfFontName, Font>
    for (const name of ['regular', 'bold'] as const) {
      const font = create(Buffer.from(bytes[name]))
      if (!('layout' in font)) throw new Error(`the PDF font ${FONT_FILES[name]} is a collection, not one face`)
      font.layout('Aa')
      result[name] = font
      await new Promise(resolve => setImmediate(resolve))
    }
    return result
  })()
  opened.catch(() => (opened = undefined))
  return opened
}

/** Registers the typeface's faces under their names, as bytes or as opened fonts. */
export function registerPdfFonts(doc: PDFKit.PDFDocument, faces: Record<PdfFontName, Uint8Array | Font>): void {
  for (const name of ['regular', 'bold'] as const) {
    const face = faces[name]
    // @types/pdfkit admits a path or bytes only; PDFKit itself also takes an opened font.
    doc.registerFont(name, (face instanceof Uint8Array ? Buffer.from(face) : face) as Buffer)
  }
}
