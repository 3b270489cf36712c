/**
 * The table and scan segments of a JPEG, bounded to what a baseline or progressive encoder writes
 * (libjpeg-turbo in browsers' canvases, mozjpeg, sharp). A legal segment is a place to hide bytes:
 * a second quantisation table nothing uses, a Huffman table with symbols no scan can code, a scan
 * that repeats coefficients already sent. Each rule below refuses one such place. Malformed is
 * `wrong-format`; well-formed but carrying what no decoder needs is `metadata`.
 */

export type TableRefusal = 'wrong-format' | 'metadata'

interface FrameComponent { id: number, quantTable: number }

/** Code lengths 1–16, then the symbols: a DC table codes the 12 magnitude categories of 8-bit samples. */
const DC_SYMBOLS_MAX = 12
/** AC symbols are (run << 4) | size with size 1–10, plus end-of-band runs (size 0): at most 256 distinct. */
const AC_SIZE_MAX = 10
/** libjpeg's progressive scripts write 6 (grey) to 10 (colour) scans, mozjpeg's searched ones a few more. */
export const PROGRESSIVE_SCANS_MAX = 64

/** The tables and scans read so far, checked as each segment comes, and once more at EOI. */
export class JpegTables {
  private quantDefined = new Set<number>()
  /** Huffman tables defined and not yet used by a scan ('dc0', 'ac1'…), and every one ever defined. */
  private huffmanUnused = new Set<string>()
  private huffmanDefined = new Set<string>()
  private components: FrameComponent[] = []
  private progressive = false
  /** Per component: for each coefficient, the last successive-approximation bit sent (−1: none yet). */
  private sent = new Map<number, Int8Array>()
  scans = 0

  /** DQT: one or more tables of 64 values (8- or 16-bit, never 0), each id (0–3) defined once. */
  quantisation(bytes: Uint8Array, data: number, end: number): TableRefusal | null {
    if (data >= end) return 'wrong-format'
    for (let at = data; at < end;) {
      const precision = bytes[at]! >> 4
      const id = bytes[at]! & 0x0F
      if (precision > 1 || id > 3) return 'wrong-format'
      const size = 64 * (precision + 1)
      if (at + 1 + size > end) return 'wrong-format'
      for (let index = 0; index < 64; index++) {
        const value = precision ? (bytes[at + 1 + 2 * index]! << 8) | bytes[at + 2 + 2 * index]! : bytes[at + 1 + index]!
        if (value === 0) return 'wrong-format'
      }
      if (this.quantDefined.has(id)) return 'metadata'
      this.quantDefined.add(id)
      at += 1 + size
    }
    return null
  }

  /**
   * DHT: one or more tables, each a prefix code whose code-length counts fit (Kraft) and whose
   * symbols are distinct and codable. A table must be used by a scan before it is defined again,
   * and by EOI: an encoder sends a table for the scan that follows it.
   */
  huffman(bytes: Uint8Array, data: number, end: number): TableRefusal | null {
    if (data >= end) return 'wrong-format'
    for (let at = data; at < end;) {
      const tableClass = bytes[at]! >> 4
      const id = bytes[at]! & 0x0F
      if (tableClass > 1 || id > 3 || at + 17 > end) return 'wrong-format'
      let count = 0
      let room = 1 << 16
      for (let length = 1; length <= 16; length++) {
        const codes = bytes[at + length]!
        count += codes
        room -= codes << (16 - length)
        if (room < 0) return 'wrong-format'
      }
      // The all-ones code of every length is reserved, so a full code space is malformed too.
      if (count === 0 || room === 0 || at + 17 + count > end) return 'wrong-format'
      const symbols = bytes.subarray(at + 17, at + 17 + count)
      if (new Set(symbols).size !== count) return 'metadata'
      for (const symbol of symbols) {
        if (tableClass === 0 ? symbol >= DC_SYMBOLS_MAX : (symbol & 0x0F) > AC_SIZE_MAX) return 'metadata'
      }
      if (tableClass === 0 && count > DC_SYMBOLS_MAX) return 'metadata'
      const key = `${tableClass ? 'ac' : 'dc'}${id}`
      if (this.huffmanUnused.has(key)) return 'metadata'
      this.huffmanUnused.add(key)
      this.huffmanDefined.add(key)
      at += 17 + count
    }
    return null
  }

  /** SOF: distinct component ids, sampling factors 1–4, quantisation table 0–3. */
  frame(bytes: Uint8Array, data: number, components: number, progressive: boolean): TableRefusal | null {
    this.progressive = progressive
    for (let index = 0; index < components; index++) {
      const at = data + 6 + 3 * index
      const id = bytes[at]!
      const horizontal = bytes[at + 1]! >> 4
      const vertical = bytes[at + 1]! & 0x0F
      const quantTable = bytes[at + 2]!
      if (this.components.some(c => c.id === id)) return 'wrong-format'
      if (horizontal < 1 || horizontal > 4 || vertical < 1 || vertical > 4 || quantTable > 3) return 'wrong-format'
      this.components.push({ id, quantTable })
      this.sent.set(id, new Int8Array(64).fill(-1))
    }
    return null
  }

  /**
   * SOS header: its length is exactly that of its components; each is in the frame once; its
   * tables exist; and the scan sends coefficients not sent yet (a sequential scan: all 64 of each
   * component, once; a progressive one: a new band, or the next bit of one, in the order G.1.1
   * of the standard allows). A scan that repeats one only carries bytes no picture needs.
   */
  scan(bytes: Uint8Array, data: number, length: number): TableRefusal | null {
    const count = bytes[data]!
    if (count < 1 || count > 4 || length !== 6 + 2 * count) return 'wrong-format'
    const params = data + 1 + 2 * count
    const start = bytes[params]!
    const endBand = bytes[params + 1]!
    const high = bytes[params + 2]! >> 4
    const low = bytes[params + 2]! & 0x0F
    if (this.progressive) {
      if (start > endBand || endBand > 63 || (start === 0) !== (endBand === 0) || (start > 0 && count > 1) || high > 13 || low > 13) return 'wrong-format'
      if (high !== 0 && low !== high - 1) return 'metadata'
    }
    else if (start !== 0 || endBand !== 63 || high !== 0 || low !== 0) return 'wrong-format'
    if (++this.scans > (this.progressive ? PROGRESSIVE_SCANS_MAX : this.components.length)) return 'metadata'
    const seen = new Set<number>()
    for (let index = 0; index < count; index++) {
      const id = bytes[data + 1 + 2 * index]!
      const dc = bytes[data + 2 + 2 * index]! >> 4
      const ac = bytes[data + 2 + 2 * index]! & 0x0F
      const component = this.components.find(c => c.id === id)
      if (!component || seen.has(id) || !this.quantDefined.has(component.quantTable)) return 'wrong-format'
      seen.add(id)
      const usesDc = start === 0 && high === 0
      const usesAc = !this.progressive || start > 0
      if (usesDc && !this.use(`dc${dc}`)) return 'wrong-format'
      if (usesAc && !this.use(`ac${ac}`)) return 'wrong-format'
      const sent = this.sent.get(id)!
      // AC bands of a component come only after its DC (G.1.1.1.1).
      if (start > 0 && sent[0] === -1) return 'wrong-format'
      for (let k = start; k <= endBand; k++) {
        if (high === 0 ? sent[k] !== -1 : sent[k] !== high) return 'metadata'
        sent[k] = low
      }
    }
    return null
  }

  private use(key: string): boolean {
    this.huffmanUnused.delete(key)
    return this.huffmanDefined.has(key)
  }

  /** At EOI: every table defined was used (a frame's component, a scan). */
  complete(): TableRefusal | null {
    if (this.huffmanUnused.size > 0) return 'metadata'
    for (const id of this.quantDefined) if (!this.components.some(c => c.quantTable === id)) return 'metadata'
    return null
  }
}
