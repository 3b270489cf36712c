/**
 * The invitation's colours, for what cannot read the CSS variables: the browser's theme colour,
 * the web app manifest, the printed QR card and the icons. assets/css/tokens.css spells the same
 * two as `--color-primary` and `--color-bg`, and scripts/make-icons.mjs (plain Node, no
 * TypeScript) as WINE and PAPER; tests/unit/brand.test.ts keeps all three equal.
 */
export const BRAND_COLOUR = '#7a3e48'
export const PAPER_COLOUR = '#fbf7f4'
