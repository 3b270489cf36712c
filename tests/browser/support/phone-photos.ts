import sharp from 'sharp'

/**
 * A phone photo as a camera stores it: landscape pixels (12 MP: 4000 × 3000) with EXIF
 * orientation 6 (shown as a 3000 × 4000 portrait) and a GPS position. The stored top half is red
 * and the bottom half blue, under grain that makes it weigh what a real photo does (~4 MB at
 * 12 MP), so a test can see where the halves went once the orientation is applied: red on the right.
 */
export async function phonePortrait(width = 4000, height = 3000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  let seed = 1
  for (let y = 0; y < height; y++) {
    const [r, g, b] = y < height / 2 ? [200, 60, 50] : [40, 70, 190]
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0
      const grain = ((seed >>> 24) & 31) - 16
      const at = (y * width + x) * 3
      raw[at] = r + grain
      raw[at + 1] = g + grain
      raw[at + 2] = b + grain
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' } })
    .toBuffer()
}
