import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BRAND_COLOUR, PAPER_COLOUR } from '#shared/brand'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

describe('the brand colours are one fact', () => {
  it('the design tokens spell the same wine red and paper as shared/brand.ts', () => {
    const tokens = read('assets/css/tokens.css')
    expect(tokens).toContain(`--color-primary: ${BRAND_COLOUR};`)
    expect(tokens).toContain(`--color-bg: ${PAPER_COLOUR};`)
  })

  it('the icon drawing script (plain Node, it cannot import TypeScript) uses the same two', () => {
    const script = read('scripts/make-icons.mjs')
    expect(script).toContain(`const WINE = '${BRAND_COLOUR}'`)
    expect(script).toContain(`const PAPER = '${PAPER_COLOUR}'`)
  })
})
