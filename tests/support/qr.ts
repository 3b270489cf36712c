import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsQR from 'jsqr'
import sharp from 'sharp'

export interface Pixels { data: Buffer, width: number, height: number }

/** Any image sharp reads (PNG, SVG rasterised by librsvg) as RGBA pixels. */
export async function rgba(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** What a phone would read from the image, or null when no code is found. */
export async function decodeQr(image: Buffer): Promise<string | null> {
  const { data, width, height } = await rgba(image)
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height, { inversionAttempts: 'dontInvert' })
  return code?.data ?? null
}

/**
 * The light margin to the left of the top-left finder pattern and the width of one module, in
 * pixels. The pattern's top row is 7 dark modules followed by a light separator.
 */
export function quietZone({ data, width }: Pixels): { marginPx: number, modulePx: number } {
  const dark = (x: number, y: number) => data[(y * width + x) * 4]! < 128
  let first = 0
  while (first < width && !dark(first, first)) first++ // the diagonal meets the pattern's corner
  let run = 0
  while (dark(first + run, first)) run++
  return { marginPx: first, modulePx: run / 7 }
}

/** Writes a PDF to a temporary file for poppler's tools. */
function pdfFile(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'qr-pdf-'))
  const path = join(dir, 'card.pdf')
  writeFileSync(path, pdf)
  return path
}

export function pdfInfo(pdf: Buffer): Record<string, string> {
  const out = execFileSync('pdfinfo', [pdfFile(pdf)], { encoding: 'utf8' })
  return Object.fromEntries(out.split('\n').filter(Boolean).map((line) => {
    const at = line.indexOf(':')
    return [line.slice(0, at).trim(), line.slice(at + 1).trim()]
  }))
}

export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', pdfFile(pdf), '-'], { encoding: 'utf8' })
}

/** pdffonts' table: one row per font with its name and whether it is embedded. */
export function pdfFonts(pdf: Buffer): { name: string, embedded: boolean }[] {
  const lines = execFileSync('pdffonts', [pdfFile(pdf)], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean)
  return lines.map((line) => {
    const cells = line.trim().split(/\s+/)
    // name, type (one or more words), encoding, emb, sub, uni, object, id
    return { name: cells[0]!, embedded: cells.at(-5) === 'yes' }
  })
}

/** The first page rendered at 150 dpi, as PNG. */
export function pdfPagePng(pdf: Buffer): Buffer {
  const path = pdfFile(pdf)
  const prefix = join(path, '..', 'page')
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', path, prefix])
  return readFileSync(`${prefix}.png`)
}
