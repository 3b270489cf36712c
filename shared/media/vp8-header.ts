/**
 * The start of a lossy WebP's VP8 key frame (RFC 6386), read far enough to know how its bytes are
 * split: the frame tag (first partition size), then, inside the bool-coded first partition, the
 * header fields up to the number of token partitions, then the partition size table. Every byte of
 * the chunk belongs to a partition; a partition no macroblock row reads is room for hidden bytes.
 */

export interface Vp8Layout {
  /** Bytes of the first partition (modes), after the 10-byte frame header. */
  firstPartitionSize: number
  /** Token partitions: 1, 2, 4 or 8. */
  partitions: number
}

/** The boolean entropy decoder of RFC 6386, section 7.3: enough to read literals from a header. */
class BoolReader {
  private value: number
  private range = 255
  private bitCount = 0
  private at: number

  constructor(private bytes: Uint8Array, start: number, private end: number) {
    this.at = start
    this.value = (this.next() << 8) | this.next()
  }

  private next(): number {
    return this.at < this.end ? this.bytes[this.at++]! : 0
  }

  bool(probability: number): number {
    const split = 1 + (((this.range - 1) * probability) >> 8)
    const bigSplit = split << 8
    let bit: number
    if (this.value >= bigSplit) {
      bit = 1
      this.range -= split
      this.value -= bigSplit
    }
    else {
      bit = 0
      this.range = split
    }
    while (this.range < 128) {
      this.value <<= 1
      this.range <<= 1
      if (++this.bitCount === 8) {
        this.bitCount = 0
        this.value |= this.next()
      }
    }
    return bit
  }

  literal(bits: number): number {
    let value = 0
    for (let index = 0; index < bits; index++) value = (value << 1) | this.bool(128)
    return value
  }

  /** A flagged signed value (`flag ? L(bits) and sign : nothing`), read and dropped. */
  skipFlagged(bits: number, signed = true) {
    if (this.literal(1)) this.literal(bits + (signed ? 1 : 0))
  }
}

/** The frame tag and the header fields before the partition count (RFC 6386, 9.2–9.5 and 19.2). */
export function readVp8Layout(bytes: Uint8Array, data: number, size: number): Vp8Layout | null {
  if (size < 11) return null
  const tag = bytes[data]! | (bytes[data + 1]! << 8) | (bytes[data + 2]! << 16)
  const keyFrame = (tag & 1) === 0
  const version = (tag >> 1) & 7
  const shown = (tag >> 4) & 1
  const firstPartitionSize = tag >>> 5
  if (!keyFrame || version > 3 || !shown || 10 + firstPartitionSize >= size) return null
  const reader = new BoolReader(bytes, data + 10, data + 10 + firstPartitionSize)
  reader.literal(2) // colour space, clamping
  if (reader.literal(1)) { // segmentation
    const updateMap = reader.literal(1)
    if (reader.literal(1)) { // segment feature data
      reader.literal(1)
      for (let index = 0; index < 4; index++) reader.skipFlagged(7)
      for (let index = 0; index < 4; index++) reader.skipFlagged(6)
    }
    if (updateMap) for (let index = 0; index < 3; index++) reader.skipFlagged(8, false)
  }
  reader.literal(1 + 6 + 3) // filter type, level, sharpness
  if (reader.literal(1) && reader.literal(1)) { // loop filter deltas, updated
    for (let index = 0; index < 8; index++) reader.skipFlagged(6)
  }
  return { firstPartitionSize, partitions: 1 << reader.literal(2) }
}

/**
 * Does every byte of the VP8 chunk lie in a partition a decoder reads? The size table of the
 * token partitions must fit, each partition hold a byte, and there be no more partitions than
 * macroblock rows (partition i codes rows i, i + n, …). The last partition runs to the chunk's
 * end: where its coded data stops is known only by decoding it (see the server's decode check).
 */
export function vp8PartitionsFit(bytes: Uint8Array, data: number, size: number, height: number): boolean {
  const layout = readVp8Layout(bytes, data, size)
  if (!layout) return false
  const { firstPartitionSize, partitions } = layout
  if (partitions > Math.ceil(height / 16)) return false
  const table = data + 10 + firstPartitionSize
  let at = table + 3 * (partitions - 1)
  for (let index = 0; index < partitions - 1; index++) {
    const length = bytes[table + 3 * index]! | (bytes[table + 3 * index + 1]! << 8) | (bytes[table + 3 * index + 2]! << 16)
    if (length === 0) return false
    at += length
  }
  return at < data + size
}
