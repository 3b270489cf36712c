/**
 * Hostile videos built byte by byte: the shapes an attacker sends to make the location scan read
 * storage tens of thousands of times, recurse until the stack overflows, or hide a position where
 * the scan does not look. A small MP4 box writer and EBML element writer; the media itself is
 * never real (the scan never reads it).
 */

export const text = (value: string) => Buffer.from(value, 'latin1')

export function u32(value: number): Buffer {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(value)
  return out
}

/** An MP4 box: 32-bit size, four-character type, payload. */
export function box(type: string, ...body: Uint8Array[]): Buffer {
  const payload = Buffer.concat(body)
  return Buffer.concat([u32(8 + payload.length), text(type), payload])
}

/** A full box: version and flags (zero) before the payload. */
export const fullBox = (type: string, ...body: Uint8Array[]) => box(type, u32(0), ...body)

export const ftyp = box('ftyp', text('isom'), u32(0x200), text('isomiso2avc1mp41'))

/** A movie header of 1 s at 1000 units a second. */
export function mvhd(): Buffer {
  const body = Buffer.alloc(100)
  body.writeUInt32BE(1000, 12)
  body.writeUInt32BE(1000, 16)
  body.writeUInt32BE(0x00010000, 20)
  body.writeUInt16BE(0x0100, 24)
  return box('mvhd', body)
}

export const mdat = (length = 4096) => box('mdat', Buffer.alloc(length, 0xAB))

/** The position the location tests look for, as Apple and ffmpeg write it (ISO 6709). */
export const ISO6709 = '+23.5505-046.6333+760.000/'

/** A QuickTime user data string: 16-bit length, 16-bit language, the text. */
export const xyz = (value = ISO6709) => box('\u00A9xyz', Buffer.from([0, value.length, 0x15, 0xC7]), text(value))

/** An iTunes `data` atom: type 1 (UTF-8), locale 0, the text. */
export const dataAtom = (value: string) => box('data', u32(1), u32(0), text(value))

/** Apple's `keys` table of `mdta` names (QuickTime metadata). */
export const keysBox = (...names: string[]) => fullBox('keys', u32(names.length), ...names.map(name => box('mdta', text(name))))

/** An `ilst` item whose type is the 1-based index of its key. */
export const keyedItem = (index: number, value: string) => Buffer.concat([u32(8 + 16 + value.length), u32(index), dataAtom(value)])

export const mdtaHandler = () => fullBox('hdlr', u32(0), text('mdta'), Buffer.alloc(12), Buffer.from([0]))

/** ftyp, `count` empty top-level boxes (8 bytes each), a moov: about 800 KB for 99,000. */
export function manyBoxesMp4(count: number): Buffer {
  const empty = box('free')
  return Buffer.concat([ftyp, Buffer.concat(Array.from({ length: count }, () => empty)), box('moov', mvhd())])
}

// ---------------------------------------------------------------------------------------------
// EBML (WebM / Matroska)

function vintSize(value: number, length?: number): Buffer {
  const n = length ?? [1, 2, 3, 4, 5, 6, 7, 8].find(l => value < 2 ** (7 * l) - 1)!
  const out = Buffer.alloc(n)
  let rest = value
  for (let i = n - 1; i >= 0; i--) {
    out[i] = rest % 256
    rest = Math.floor(rest / 256)
  }
  out[0]! |= 0x80 >> (n - 1)
  return out
}

function idBytes(id: number): Buffer {
  const bytes: number[] = []
  for (let rest = id; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Buffer.from(bytes)
}

/** An EBML element with the shortest size field. */
export function element(id: number, ...body: Uint8Array[]): Buffer {
  const payload = Buffer.concat(body)
  return Buffer.concat([idBytes(id), vintSize(payload.length), payload])
}

const uint = (id: number, value: number) => element(id, Buffer.from([value]))

/** The EBML header of a WebM file, as file-type and ffprobe expect it. */
export const ebmlHeader = element(0x1A45DFA3,
  uint(0x4286, 1), uint(0x42F7, 1), uint(0x42F2, 4), uint(0x42F3, 8), element(0x4282, text('webm')), uint(0x4287, 4), uint(0x4285, 2))

const SEGMENT = 0x18538067
const info = element(0x1549A966, element(0x2AD7B1, Buffer.from([0x0F, 0x42, 0x40])))
export const simpleTag = (name: string, value: string) => element(0x67C8, element(0x45A3, text(name)), element(0x4487, text(value)))
export const tags = (...simpleTags: Uint8Array[]) => element(0x1254C367, element(0x7373, element(0x63C0), ...simpleTags))

/** A WebM whose Segment holds `count` empty Void elements (2 bytes each) between its Info and its Tags. */
export function manyVoidsWebm(count: number): Buffer {
  const voids = Buffer.alloc(2 * count)
  for (let i = 0; i < count; i++) voids.set([0xEC, 0x80], 2 * i)
  return Buffer.concat([ebmlHeader, element(SEGMENT, info, voids, tags(simpleTag('TITLE', 'festa')))])
}

/**
 * A WebM whose Tags hold one SimpleTag nested `depth` deep, a LOCATION at the bottom. Sizes are
 * written as 8-byte fields so each level's header is 10 bytes, built from the inside out.
 */
export function deepTagsWebm(depth: number): Buffer {
  const inner = simpleTag('LOCATION', ISO6709)
  const header = (size: number) => Buffer.concat([idBytes(0x67C8), vintSize(size, 8)])
  const name = element(0x45A3, text('NESTED'))
  const total = inner.length + depth * (10 + name.length)
  const out = Buffer.alloc(total)
  // Level i (0 = outermost) starts at i * (10 + name.length); the innermost tag ends the buffer.
  for (let level = 0; level < depth; level++) {
    const at = level * (10 + name.length)
    header(total - at - 10).copy(out, at)
    name.copy(out, at + 10)
  }
  inner.copy(out, depth * (10 + name.length))
  return Buffer.concat([ebmlHeader, element(SEGMENT, info, element(0x1254C367, element(0x7373, element(0x63C0), out)))])
}

// ---------------------------------------------------------------------------------------------
// Positions hidden in an otherwise real MP4 (one ffmpeg wrote, its moov after the media data, so
// that anything added inside the moov moves no chunk offset)

interface TopBox { type: string, start: number, end: number }

function topLevel(mp4: Buffer): TopBox[] {
  const out: TopBox[] = []
  for (let at = 0; at + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(at)
    if (size < 8) throw new Error('a top-level box this writer does not handle')
    out.push({ type: mp4.toString('latin1', at + 4, at + 8), start: at, end: at + size })
    at += size
  }
  return out
}

/** The MP4 with `children` appended inside its moov, which must be its last top-level box. */
export function withMoovChildren(mp4: Buffer, ...children: Buffer[]): Buffer {
  const boxes = topLevel(mp4)
  const moov = boxes.at(-1)!
  if (moov.type !== 'moov') throw new Error('the moov must come last')
  const grown = Buffer.concat([mp4.subarray(moov.start, moov.end), ...children])
  grown.writeUInt32BE(grown.length, 0)
  return Buffer.concat([mp4.subarray(0, moov.start), grown])
}

/** A `meta` of Apple's QuickTime metadata: handler `mdta`, then the given boxes (keys, ilst…). */
export const quickTimeMeta = (...boxes: Buffer[]) => box('meta', mdtaHandler(), ...boxes)

/** An iTunes freeform item: `----` holding mean, name and data. */
export const freeformItem = (mean: string, name: string, value: string) => box('----', fullBox('mean', text(mean)), fullBox('name', text(name)), dataAtom(value))

/** An ISO `meta` (version and flags) with an iTunes handler and an `ilst` of the given items. */
export const iTunesMeta = (...items: Buffer[]) => fullBox('meta', fullBox('hdlr', u32(0), text('mdir'), text('appl'), Buffer.alloc(9)), box('ilst', ...items))

/** A sample entry of `type`: six reserved bytes, data reference index 1, then its boxes. */
export const sampleEntry = (type: string, ...boxes: Buffer[]) => box(type, Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), ...boxes)

/** Apple's timed metadata sample entry, its keys numbered from 1 (keyd: namespace `mdta`, then the key). */
export const mebxEntry = (...keys: string[]) => sampleEntry('mebx', box('keys', ...keys.map((key, i) =>
  box(String.fromCharCode(0, 0, 0, i + 1), box('keyd', text('mdta'), text(key)), box('dtyp', u32(0), u32(1))))))

/** A timed metadata track (handler `meta`) with one sample entry and no samples. */
export function metadataTrak(entry: Buffer): Buffer {
  const tkhd = fullBox('tkhd', Buffer.alloc(80))
  const mdhd = fullBox('mdhd', Buffer.alloc(20))
  const hdlr = fullBox('hdlr', u32(0), text('meta'), Buffer.alloc(12), Buffer.from([0]))
  const dinf = box('dinf', fullBox('dref', u32(1), box('url ', Buffer.from([0, 0, 0, 1]))))
  const stbl = box('stbl', fullBox('stsd', u32(1), entry), fullBox('stts', u32(0)), fullBox('stsc', u32(0)), fullBox('stsz', u32(0), u32(0)), fullBox('stco', u32(0)))
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', fullBox('nmhd'), dinf, stbl)))
}

/** The fragmented MP4 with `child` appended inside its first `moof`. */
export function withFirstMoofChild(mp4: Buffer, child: Buffer): Buffer {
  const moof = topLevel(mp4).find(top => top.type === 'moof')!
  const grown = Buffer.concat([mp4.subarray(moof.start, moof.end), child])
  grown.writeUInt32BE(grown.length, 0)
  return Buffer.concat([mp4.subarray(0, moof.start), grown, mp4.subarray(moof.end)])
}

/** The box with a size `extra` bytes larger than it is: it runs past the end of the file. */
export function overrunning(whole: Buffer, extra: number): Buffer {
  const out = Buffer.from(whole)
  out.writeUInt32BE(whole.length + extra, 0)
  return out
}

/** The MP4 with `child` appended inside its first track's first sample entry (avc1), every enclosing size grown. */
export function withSampleEntryChild(mp4: Buffer, child: Buffer): Buffer {
  const starts: number[] = []
  let from = 0
  let end = mp4.length
  for (const type of ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd', 'avc1']) {
    // stsd is a full box with an entry count before its entries.
    let at = type === 'avc1' ? from + 8 : from
    while (at + 8 <= end && mp4.toString('latin1', at + 4, at + 8) !== type) {
      const size = mp4.readUInt32BE(at)
      if (size < 8) throw new Error(`no ${type}`)
      at += size
    }
    if (at + 8 > end) throw new Error(`no ${type}`)
    starts.push(at)
    from = at + 8
    end = at + mp4.readUInt32BE(at)
  }
  const out = Buffer.concat([mp4.subarray(0, end), child, mp4.subarray(end)])
  for (const start of starts) out.writeUInt32BE(mp4.readUInt32BE(start) + child.length, start)
  return out
}
