/*
 * What a long document needs of PDFKit's embedded fonts that PDFKit 0.20 has no public API for:
 * its fonts are reached through the document's private `_fontFamilies` here and nowhere else.
 */

interface EmbeddedFontState { layoutCache?: Record<string, unknown>, finalize: () => void }

const fontsOf = (doc: PDFKit.PDFDocument) => Object.values((doc as unknown as { _fontFamilies: Record<string, EmbeddedFontState> })._fontFamilies)

/**
 * Lets go of the layouts PDFKit keeps of every word it has set (each embedded font's layout
 * cache): they grow with every new name and number, 2 KB a guestbook message. Emptied now and then
 * (after each page of rows read), the cache still spares most of the work (without it the
 * guestbook's book took four times the CPU).
 */
export function forgetLayouts(doc: PDFKit.PDFDocument): void {
  for (const font of fontsOf(doc)) if (font.layoutCache) font.layoutCache = Object.create(null)
}

/**
 * Embeds the fonts (the glyphs used, compressed), the longest step of PDFKit's `end()`, one font
 * at a time with `between()` after each: `end()` then finds them embedded and goes on to the
 * cross-reference table.
 */
export async function embedFontsInTurns(doc: PDFKit.PDFDocument, between: () => Promise<unknown>): Promise<void> {
  for (const font of fontsOf(doc)) {
    font.finalize()
    await between()
  }
}
