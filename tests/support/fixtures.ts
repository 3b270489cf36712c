import sharp from 'sharp'

/** A real JPEG with GPS EXIF and an orientation tag (6: shown rotated 90° clockwise). */
export async function jpegWithGps(width = 64, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'TestPhone' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' },
    })
    .toBuffer()
}

export async function jpeg(width = 48, height = 48, color = { r: 20, g: 120, b: 200 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).jpeg().toBuffer()
}

export async function png(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 1 } } }).png().toBuffer()
}

/**
 * Bytes that begin like a real MP4 (an `ftyp` box, brand isom) followed by filler: what the
 * server checks is the container's signature, not the codec.
 */
export function mp4(size: number, brand = 'isom'): Buffer {
  const bytes = Buffer.alloc(size)
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftyp'), Buffer.from(brand), Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2avc1mp41'),
  ])
  ftyp.copy(bytes, 0)
  // A moov holding only its movie header (3 s at 1000 units a second, what the seeds declare):
  // the box structure confirm walks to find a recorded position, which a video without one is
  // refused for, and the length confirm keeps.
  const mvhd = Buffer.alloc(108)
  mvhd.writeUInt32BE(108, 0)
  mvhd.write('mvhd', 4)
  mvhd.writeUInt32BE(1000, 20)
  mvhd.writeUInt32BE(3000, 24)
  mvhd.writeUInt32BE(0x00010000, 28)
  mvhd.writeUInt16BE(0x0100, 32)
  Buffer.concat([Buffer.from([0, 0, 0, 116]), Buffer.from('moov'), mvhd]).copy(bytes, 32)
  // The media data: the rest of the file.
  bytes.writeUInt32BE(size - 148, 148)
  bytes.write('mdat', 152)
  for (let i = 156; i < size; i += 4096) bytes[i] = i & 0xff
  return bytes
}

export const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')
