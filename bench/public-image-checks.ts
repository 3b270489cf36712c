// What confirm spends checking one photo's phone-made images (display 2048 JPEG, thumbnails 960
// and 480 WebP) and a video's poster: the structural reading alone, and with the decode check
// that finds bytes after the coded data (server/utils/uploads/coded-data.ts: one decode, plus one
// per coded part shortened by 8 bytes). Pure noise is the worst case (the most coded data per
// pixel); a flat picture the best. Run: npm run bench -- public-image-checks.
import { loadavg } from 'node:os'
import sharp from 'sharp'
import { checkPublicImage } from '../shared/media/public-image'
import { checkPoster } from '../shared/media/poster'
import { codedDataFillsImage } from '../server/utils/uploads/coded-data'
import { table, writeSection } from './lib'

const RUNS = 7
const PHONE = { width: 4000, height: 3000 }

function noise(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    raw[i] = seed >>> 24
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
}
const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 190, g: 90, b: 60 } } })

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timeOf(work: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  return median(times)
}

const rows: (string | number)[][] = []
for (const [name, picture] of [['noise', noise], ['flat', flat]] as const) {
  const display = await picture(2048, 1536).jpeg({ quality: 85 }).toBuffer()
  const thumb2x = await picture(960, 720).webp({ quality: 80 }).toBuffer()
  const thumb = await picture(480, 360).webp({ quality: 80 }).toBuffer()
  const poster = await picture(640, 360).jpeg({ quality: 80 }).toBuffer()
  const cases = [
    ['display 2048 JPEG', display, () => checkPublicImage(display, { variant: 'display', original: PHONE })],
    ['thumb2x 960 WebP', thumb2x, () => checkPublicImage(thumb2x, { variant: 'thumb2x', original: PHONE })],
    ['thumb 480 WebP', thumb, () => checkPublicImage(thumb, { variant: 'thumb', original: PHONE })],
    ['poster 640 JPEG', poster, () => checkPoster(poster)],
  ] as const
  for (const [label, bytes, structural] of cases) {
    if (!(structural() as { ok: boolean }).ok || !(await codedDataFillsImage(bytes))) throw new Error(`${label} (${name}) refused`)
    rows.push([`${label}, ${name}`, `${Math.round(bytes.length / 1024)} KB`, `${(await timeOf(structural)).toFixed(2)} ms`, `${(await timeOf(() => codedDataFillsImage(bytes))).toFixed(1)} ms`])
  }
}

writeSection('Checking phone-made images and posters', `
Measured by \`bench/public-image-checks.ts\` on ${new Date().toISOString().slice(0, 10)} (median of ${RUNS}, sharp with its default threads,
load average ${loadavg()[0]!.toFixed(1)} at the end: other work shared the machine). "Structure" is
\`checkPublicImage\` / \`checkPoster\` (segments, tables, scans, chunks: no decoding); "decode check"
is \`codedDataFillsImage\`: the image decoded once, and once more per coded part shortened by 8 bytes
(one for a JPEG, two for a lossy WebP: first partition and tokens). A photo's confirm runs the three
images' checks side by side.

${table(['image', 'bytes', 'structure', 'decode check'], rows)}
`)
console.log(rows.map(row => row.join('  ')).join('\n'))
