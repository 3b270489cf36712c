import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawableText } from '../../server/utils/guestbook/book'
import { messageHoldMs } from '../../composables/useSlideshowMessages'

// The book's real typeface: the QR card's Lora, latin subset.
const require = createRequire(import.meta.url)
// pdfkit's own font reader (it has no types of its own).
const fontkit = require('fontkit') as { create: (bytes: Buffer) => unknown }

const loraDir = join(dirname(require.resolve('@fontsource/lora/LICENSE')), 'files')
const lora = fontkit.create(readFileSync(join(loraDir, 'lora-latin-400-normal.woff'))) as unknown as { hasGlyphForCodePoint: (cp: number) => boolean }

describe('the book prints what its typeface can draw', () => {
  it('keeps Portuguese whole, accents and punctuation included', () => {
    const text = 'Felicidades, João & Zoë! “Ação” — até já… 100%\nSegunda linha'
    expect(drawableText(text, lora)).toBe(text)
  })

  it('leaves emoji out cleanly: no box, no joiner, no doubled space', () => {
    expect(drawableText('Viva os noivos 🎉🥂 e muita dança', lora)).toBe('Viva os noivos e muita dança')
    expect(drawableText('Família 👨‍👩‍👧 unida ❤️', lora)).toBe('Família unida')
    expect(drawableText('🎉', lora)).toBe('')
  })
})

describe('a message on the big screen', () => {
  it('stays 8 s at least, longer for long words, 30 s at most', () => {
    expect(messageHoldMs('Oi')).toBe(8120)
    expect(messageHoldMs('x'.repeat(200))).toBe(20_000)
    expect(messageHoldMs('x'.repeat(1000))).toBe(30_000)
  })
})
