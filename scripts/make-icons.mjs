// Draws the app's icons (public/icons/*.png, committed) from one SVG: a photo frame with a heart
// on the invitation's wine red. Run again after changing the drawing: `node scripts/make-icons.mjs`.
import { mkdirSync } from 'node:fs'
import sharp from 'sharp'

const WINE = '#7a3e48'
const PAPER = '#fbf7f4'
const GOLD = '#b8925a'

/** The drawing on a 512 canvas; `scale` shrinks it about the centre (maskable icons keep a safe zone). */
function drawing(scale, rounded) {
  const inset = (512 - 512 * scale) / 2
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="${WINE}"/>
  <g transform="translate(${inset} ${inset}) scale(${scale})">
    <rect x="96" y="120" width="320" height="272" rx="28" fill="${PAPER}"/>
    <rect x="124" y="148" width="264" height="184" rx="12" fill="${GOLD}" opacity="0.35"/>
    <path d="M256 312 C 188 262 150 232 150 196 C 150 170 170 152 194 152 C 220 152 240 168 256 190 C 272 168 292 152 318 152 C 342 152 362 170 362 196 C 362 232 324 262 256 312 Z" fill="${WINE}"/>
    <circle cx="256" cy="362" r="10" fill="${WINE}"/>
  </g>
</svg>`
}

mkdirSync('public/icons', { recursive: true })
const icons = [
  ['icon-192.png', 192, drawing(1, true)],
  ['icon-512.png', 512, drawing(1, true)],
  // Maskable: the platform cuts its own shape, so the background fills the square and the
  // drawing stays inside the central 80 % safe zone.
  ['icon-maskable-512.png', 512, drawing(0.72, false)],
]
for (const [name, size, svg] of icons) {
  await sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9 }).toFile(`public/icons/${name}`)
  console.log(`public/icons/${name}`)
}
