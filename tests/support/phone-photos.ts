import sharp from 'sharp'

/** Grey noise of `width` × `height` drawn at `cells` across and smoothly enlarged: detail of one scale. */
async function noiseLayer(width: number, height: number, cells: number, seed: number): Promise<Buffer> {
  const small = { width: Math.max(2, cells), height: Math.max(2, Math.round(cells * height / width)) }
  const raw = Buffer.alloc(small.width * small.height)
  // xorshift32: a plain LCG's bytes line up into visible stripes.
  let state = seed * 2654435761 >>> 0 || 1
  for (let i = 0; i < raw.length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    raw[i] = (state >>> 0) & 0xFF
  }
  return sharp(raw, { raw: { ...small, channels: 1 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer()
}

/**
 * A phone photo as a camera stores it: landscape pixels (12 MP: 4000 × 3000) with EXIF
 * orientation 6 (shown as a 3000 × 4000 portrait) and a GPS position. The stored top half is red
 * and the bottom half blue, so a test can see where the halves went once the orientation is
 * applied (red on the right). Over them, grey detail at every scale from blotches to grain, as
 * in a real photo, so that encoders and decoders work as hard as they would on one.
 */
export async function phonePortrait(width = 4000, height = 3000): Promise<Buffer> {
  // Coarse to fine, each finer layer fainter: roughly the 1/f spectrum of natural pictures.
  const layers = [[8, 40], [40, 30], [200, 22], [1000, 16], [width, 10]] as const
  const detail = await Promise.all(layers.map(([cells], index) => noiseLayer(width, height, cells, index + 1)))
  // Clamped: a Buffer would wrap 260 round to 4.
  const raw = new Uint8ClampedArray(width * height * 3)
  for (let y = 0; y < height; y++) {
    const [r, g, b] = y < height / 2 ? [190, 60, 50] : [40, 70, 180]
    for (let x = 0; x < width; x++) {
      const at = y * width + x
      let grey = 0
      for (let index = 0; index < layers.length; index++) grey += (detail[index]![at]! - 128) * layers[index]![1] / 128
      raw[at * 3] = r + grey
      raw[at * 3 + 1] = g + grey
      raw[at * 3 + 2] = b + grey
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' } })
    .toBuffer()
}
