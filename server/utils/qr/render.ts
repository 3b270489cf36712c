import QRCode from 'qrcode'
import sharp from 'sharp'

/** PNG width and height, in pixels (service-spec part 4). */
export const QR_PNG_WIDTH = 800
/** Light modules around the symbol that scanners need to find it (ISO/IEC 18004 asks for 4). */
export const QR_QUIET_ZONE_MODULES = 4

export type QrLevel = 'L' | 'M' | 'Q' | 'H'

export interface QrMatrix {
  /** Modules per side, quiet zone excluded. */
  size: number
  level: QrLevel
  isDark: (row: number, col: number) => boolean
}

function tryCreate(text: string, level: QrLevel): QRCode.QRCode | null {
  try {
    return QRCode.create(text, { errorCorrectionLevel: level })
  }
  catch {
    return null // too much data for this level
  }
}

/**
 * The symbol for `text`. Level Q (a quarter of the symbol can be lost to a smudge, a fold or glare on
 * a printed card), raised to H when that costs no extra modules. Only the longest addresses the
 * contract allows (over ~1,660 bytes) do not fit at Q: they fall back to M rather than be refused.
 */
export function qrMatrix(text: string): QrMatrix {
  let level: QrLevel = 'Q'
  let code = tryCreate(text, 'Q')
  if (code) {
    const high = tryCreate(text, 'H')
    if (high && high.version === code.version) {
      code = high
      level = 'H'
    }
  }
  else {
    level = 'M'
    code = QRCode.create(text, { errorCorrectionLevel: 'M' })
  }
  const { size, data } = code.modules
  return { size, level, isDark: (row, col) => data[row * size + col] === 1 }
}

/** Horizontal runs of dark modules, so that vector formats draw one rectangle per run. */
export function* darkRuns(matrix: QrMatrix): Generator<{ row: number, col: number, length: number }> {
  for (let row = 0; row < matrix.size; row++) {
    let col = 0
    while (col < matrix.size) {
      if (!matrix.isDark(row, col)) {
        col++
        continue
      }
      const start = col
      while (col < matrix.size && matrix.isDark(row, col)) col++
      yield { row, col: start, length: col - start }
    }
  }
}

/**
 * Exactly 800 × 800 px. Every module gets the same whole number of pixels (crisp edges in print;
 * the qrcode package's own PNG scales fractionally and comes out 799 px wide for some versions);
 * what is left over widens the quiet zone.
 */
export async function renderQrPng(matrix: QrMatrix): Promise<Buffer> {
  const modulePx = Math.floor(QR_PNG_WIDTH / (matrix.size + 2 * QR_QUIET_ZONE_MODULES))
  const offset = Math.floor((QR_PNG_WIDTH - matrix.size * modulePx) / 2)
  const pixels = Buffer.alloc(QR_PNG_WIDTH * QR_PNG_WIDTH * 3, 0xFF)
  for (const run of darkRuns(matrix)) {
    for (let y = 0; y < modulePx; y++) {
      const rowStart = ((offset + run.row * modulePx + y) * QR_PNG_WIDTH + offset + run.col * modulePx) * 3
      pixels.fill(0, rowStart, rowStart + run.length * modulePx * 3)
    }
  }
  // RGB rather than grey: every decoder and image tool reads it the same way; zlib makes the
  // difference in size negligible.
  return sharp(pixels, { raw: { width: QR_PNG_WIDTH, height: QR_PNG_WIDTH, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer()
}

/** A self-contained SVG in module units (scales to any size), with its quiet zone, and nothing else. */
export function renderQrSvg(matrix: QrMatrix): string {
  const side = matrix.size + 2 * QR_QUIET_ZONE_MODULES
  const path = [...darkRuns(matrix)]
    .map(run => `M${run.col + QR_QUIET_ZONE_MODULES} ${run.row + QR_QUIET_ZONE_MODULES}h${run.length}v1h-${run.length}z`)
    .join('')
  return `<?xml version="1.0" encoding="UTF-8"?>\n`
    + `<svg xmlns="http://www.w3.org/2000/svg" width="${QR_PNG_WIDTH}" height="${QR_PNG_WIDTH}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">`
    + `<rect width="${side}" height="${side}" fill="#fff"/>`
    + `<path fill="#000" d="${path}"/>`
    + `</svg>\n`
}
