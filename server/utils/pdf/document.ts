import PDFDocument from 'pdfkit'

export interface PdfPage {
  /** Width and height, in points. */
  size: [number, number]
  /** Space left around the text flow, in points (none when the layout places everything itself). */
  margins?: { top: number, bottom: number, left: number, right: number }
  info: { Title: string, CreationDate?: Date }
}

/**
 * A new PDF with no default font: null keeps PDFKit from loading its built-in Helvetica from its
 * own package files (which a bundled server may not ship), so every text must use an embedded font
 * (fonts.ts). @types/pdfkit only admits a string there.
 */
export function createPdfDocument({ size, margins, info }: PdfPage): PDFKit.PDFDocument {
  const options = { size, ...(margins ? { margins } : { margin: 0 }), font: null, info }
  return new PDFDocument(options as unknown as PDFKit.PDFDocumentOptions)
}
