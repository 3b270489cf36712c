import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { blobReader } from '../../shared/media/mp4-duration'
import { applyPatches, scanVideoLocation, voidElement, type BytePatch, type LocationScanOptions } from '../../shared/media/video-location'
import { patchedBlob, withoutVideoLocation } from '../../shared/media/video-location-blob'

// Hand-built files: every case the real ffmpeg/exiftool files of tests/e2e/video-location cannot
// reach (64-bit sizes, size 0, broken trees, limits, a crash between two writes).

const text = (value: string) => new Uint8Array([...value].map(char => char.charCodeAt(0)))

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, value)
  return out
}

function box(type: string | Uint8Array, ...body: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const payload = concat(...body)
  return concat(u32(8 + payload.length), typeof type === 'string' ? text(type) : type, payload)
}

function largeBox(type: string, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(16)
  const view = new DataView(header.buffer)
  view.setUint32(0, 1)
  header.set(text(type), 4)
  view.setBigUint64(8, BigInt(16 + payload.length))
  return concat(header, payload)
}

const XYZ = '\u00A9xyz'
const position = text('+23.5505-046.6333+760.000/')
/** QuickTime user data string: 16-bit length, 16-bit language, the text. */
const xyz = () => box(XYZ, new Uint8Array([0, position.length, 0x15, 0xC7]), position)
const ftyp = box('ftyp', text('isom'), u32(0x200), text('isomavc1'))
const mvhd = box('mvhd', new Uint8Array(100))
const trak = (...extra: Uint8Array[]) => box('trak', box('tkhd', new Uint8Array(84)), box('mdia', box('mdhd', new Uint8Array(24)), box('minf', new Uint8Array(64))), ...extra)
const mdat = (length = 4096) => box('mdat', new Uint8Array(length).fill(0xAB))

function dataItem(value: string) {
  return box('data', u32(1), u32(0), text(value))
}

function keysBox(...names: string[]) {
  return box('keys', u32(0), u32(names.length), ...names.map(name => box('mdta', text(name))))
}

const XMP_UUID = new Uint8Array([0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC])
const xmpPacket = (inner: string) => text(`<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF>${inner}</rdf:RDF></x:xmpmeta><?xpacket end='w'?>`)

async function scan(bytes: Uint8Array<ArrayBuffer>, options: LocationScanOptions = {}) {
  return scanVideoLocation(blobReader(new Blob([bytes])), bytes.length, options)
}

function patched(bytes: Uint8Array, patches: BytePatch[]): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes)
  applyPatches(copy, 0, patches)
  return copy
}

/** The offsets where two equally long arrays differ outside the patches' ranges. */
function changedOutside(before: Uint8Array, after: Uint8Array, patches: BytePatch[]): number[] {
  const inside = (i: number) => patches.some(patch => i >= patch.offset && i < patch.offset + patch.bytes.length)
  return [...before.keys()].filter(i => before[i] !== after[i] && !inside(i))
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

describe('scanVideoLocation on MP4 and QuickTime boxes', () => {
  it('renames a ©xyz behind the media data to free, zeroes its payload and keeps its length', async () => {
    const file = concat(ftyp, mdat(), box('moov', mvhd, trak(), box('udta', xyz())))
    const result = await scan(file)
    expect(result).toMatchObject({ ok: true, container: 'mp4', removed: ['/moov/udta/\u00A9xyz'] })
    if (!result.ok) return
    const at = indexOf(file, text(XYZ)) - 4
    const length = xyz().length
    expect(result.patches).toEqual([{ offset: at, bytes: concat(u32(length), text('free'), new Uint8Array(length - 8)) }])
    const clean = patched(file, result.patches)
    expect(clean.length).toBe(file.length)
    expect(indexOf(clean, position)).toBe(-1)
    expect(await scan(clean)).toEqual({ ok: true, container: 'mp4', patches: [], removed: [] })
  })

  it('finds the location in moov first, in a track\'s udta, and a 3GPP loci', async () => {
    const loci = box('loci', u32(0), new Uint8Array([0x15, 0xC7, 0]), text('home\0'), new Uint8Array(13))
    const file = concat(ftyp, box('moov', mvhd, trak(box('udta', xyz())), box('udta', loci)), mdat())
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual(['/moov/trak/udta/\u00A9xyz', '/moov/udta/loci'])
  })

  it('reads past a 64-bit (largesize) mdat to a moov at the end: one window at the start, one at the moov, none of the media between', async () => {
    const media = largeBox('mdat', new Uint8Array(3 * 1024 * 1024))
    const file = concat(ftyp, media, box('moov', mvhd, box('udta', xyz())))
    const reads: [number, number][] = []
    const reader = blobReader(new Blob([file]))
    const result = await scanVideoLocation(async (start, end) => {
      reads.push([start, end])
      return reader(start, end)
    }, file.length, { sliceSize: 4096, window: 64 * 1024, wholeFileBelow: 0 })
    expect(result.ok && result.removed).toEqual(['/moov/udta/\u00A9xyz'])
    expect(reads).toEqual([[0, 64 * 1024], [ftyp.length + media.length, file.length]])
  })

  it('reads a file under 4 MiB whole, in one read (one GET on S3)', async () => {
    const file = concat(ftyp, mdat(100_000), box('moov', mvhd, trak(box('udta', xyz())), trak(), box('udta', xyz())))
    const reads: [number, number][] = []
    const reader = blobReader(new Blob([file]))
    const result = await scanVideoLocation(async (start, end) => {
      reads.push([start, end])
      return reader(start, end)
    }, file.length, { container: 'mp4' })
    expect(result.ok && result.patches.length).toBe(2)
    expect(reads).toEqual([[0, file.length]])
  })

  it('blanks a location box with a 64-bit size and keeps its 16-byte header', async () => {
    const big = largeBox(XYZ, concat(new Uint8Array([0, position.length, 0x15, 0xC7]), position))
    const file = concat(ftyp, box('moov', mvhd, box('udta', big)), mdat())
    const result = await scan(file)
    expect(result.ok && result.patches[0]!.bytes.subarray(0, 16)).toEqual(concat(u32(1), text('free'), new Uint8Array([0, 0, 0, 0, 0, 0, 0, big.length])))
  })

  it('takes a box of size 0 as running to the end of the file, and a moov of size 0 too', async () => {
    const moov = box('moov', mvhd, box('udta', xyz()))
    const toEnd = concat(ftyp, moov, u32(0), text('mdat'), new Uint8Array(5000))
    expect((await scan(toEnd)).ok).toBe(true)
    const moovToEnd = concat(ftyp, mdat(), u32(0), text('moov'), moov.subarray(8))
    const result = await scan(moovToEnd)
    expect(result.ok && result.removed).toEqual(['/moov/udta/\u00A9xyz'])
  })

  it('answers no-moov for a file without moov, a truncated one and bytes that are no MP4 at all', async () => {
    expect(await scan(concat(ftyp, mdat()))).toEqual({ ok: false, reason: 'no-moov' })
    const whole = concat(ftyp, mdat(), box('moov', mvhd, box('udta', xyz())))
    expect(await scan(whole.slice(0, whole.length - 10))).toEqual({ ok: false, reason: 'no-moov' })
    expect(await scan(text('<html><body>not a video</body></html>'))).toEqual({ ok: false, reason: 'no-moov' })
    expect(await scan(new Uint8Array(0))).toEqual({ ok: false, reason: 'no-moov' })
  })

  it('answers unreadable when a box inside moov breaks its parent\'s bounds', async () => {
    const udta = box('udta', xyz())
    new DataView(udta.buffer).setUint32(8, 4000)
    expect(await scan(concat(ftyp, box('moov', mvhd, udta), mdat()))).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('descends nested user data to a depth of 64 and refuses deeper trees (too-complex)', async () => {
    const nest = (depth: number) => {
      let inner: Uint8Array = xyz()
      for (let i = 0; i < depth; i++) inner = box('udta', inner)
      return concat(ftyp, box('moov', inner), mdat())
    }
    const shallow = await scan(nest(60))
    expect(shallow.ok && shallow.removed[0]).toBe(`/moov${'/udta'.repeat(60)}/\u00A9xyz`)
    expect(await scan(nest(70))).toEqual({ ok: false, reason: 'too-complex' })
    expect(await scan(nest(3000))).toEqual({ ok: false, reason: 'too-complex' })
  })

  it('renames Apple\'s location key to a name of the same length and frees its ilst value, keeping the other keys', async () => {
    const locationKey = 'com.apple.quicktime.location.ISO6709'
    const meta = box('meta',
      box('hdlr', u32(0), u32(0), text('mdta'), new Uint8Array(13)),
      keysBox('com.apple.quicktime.make', locationKey, 'com.apple.quicktime.location.accuracy.horizontal'),
      box('ilst', box(u32(1), dataItem('Apple')), box(u32(2), dataItem('+23.5505-046.6333+760.000/')), box(u32(3), dataItem('4.7'))))
    const file = concat(ftyp, mdat(), box('moov', mvhd, meta))
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual([
      `/moov/meta/keys[${locationKey}]`,
      '/moov/meta/keys[com.apple.quicktime.location.accuracy.horizontal]',
      '/moov/meta/ilst/#2',
      '/moov/meta/ilst/#3',
    ])
    if (!result.ok) return
    const clean = patched(file, result.patches)
    expect(indexOf(clean, text(locationKey))).toBe(-1)
    expect(indexOf(clean, text('removed.............................'))).toBeGreaterThan(0)
    expect(indexOf(clean, text('com.apple.quicktime.make'))).toBeGreaterThan(0)
    expect(indexOf(clean, text('Apple'))).toBeGreaterThan(0)
    expect(indexOf(clean, position)).toBe(-1)
    expect(result.patches.length).toBe(4)
    expect(changedOutside(file, clean, result.patches)).toEqual([])
    expect(await scan(clean)).toEqual({ ok: true, container: 'mp4', patches: [], removed: [] })
  })

  it('still frees the value of a key renamed by an earlier pass that stopped before the value (a crash)', async () => {
    const meta = box('meta', box('hdlr', u32(0), u32(0), text('mdta'), new Uint8Array(13)),
      keysBox('com.apple.quicktime.location.ISO6709'), box('ilst', box(u32(1), dataItem('+23.5505-046.6333+760.000/'))))
    const file = concat(ftyp, box('moov', mvhd, meta), mdat())
    const first = await scan(file)
    if (!first.ok) throw new Error('unreadable')
    const halfDone = patched(file, first.patches.filter(patch => patch.bytes[4] !== 0x66))
    expect(indexOf(halfDone, position)).toBeGreaterThan(0)
    const again = await scan(halfDone)
    expect(again.ok && again.removed).toEqual(['/moov/meta/ilst/#1'])
    expect(indexOf(patched(halfDone, again.ok ? again.patches : []), position)).toBe(-1)
  })

  it('frees a ©xyz item of an iTunes-style ilst inside an ISO meta (with version and flags)', async () => {
    const meta = box('meta', u32(0), box('hdlr', u32(0), u32(0), text('mdir'), text('appl'), new Uint8Array(9)),
      box('ilst', box('\u00A9too', dataItem('Lavf')), box(XYZ, dataItem('+23.5505-046.6333+760.000/'))))
    const file = concat(ftyp, box('moov', mvhd, box('udta', meta)), mdat())
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual(['/moov/udta/meta/ilst/\u00A9xyz'])
  })

  it('frees XMP that speaks of GPS or a location, in a top-level uuid or a udta XMP_, and keeps other XMP', async () => {
    const gps = xmpPacket('<rdf:Description exif:GPSLatitude=\'23,33.03N\'/>')
    const created = xmpPacket('<rdf:Description><Iptc4xmpExt:LocationCreated>Rua X</Iptc4xmpExt:LocationCreated></rdf:Description>')
    const harmless = xmpPacket('<rdf:Description xmp:CreatorTool=\'phone\'/>')
    const file = concat(ftyp, box('uuid', XMP_UUID, gps), box('moov', mvhd, box('udta', box('XMP_', created), box('uuid', XMP_UUID, harmless))), mdat())
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual(['/uuid(XMP)', '/moov/udta/XMP_(XMP)'])
    if (!result.ok) return
    // A uuid box's header is 24 bytes; only its type changes, the rest is zeros.
    expect(result.patches[0]!.bytes.subarray(0, 8)).toEqual(concat(u32(24 + gps.length), text('free')))
    const clean = patched(file, result.patches)
    expect(indexOf(clean, text('GPSLatitude'))).toBe(-1)
    expect(indexOf(clean, text('CreatorTool'))).toBeGreaterThan(0)
  })

  it('gives the same patches whatever the slice size, with a moov spanning many slices', async () => {
    const file = concat(ftyp, mdat(), box('moov', mvhd, trak(box('udta', xyz())), box('free', new Uint8Array(10_000)), box('udta', xyz())))
    const whole = await scan(file)
    for (const sliceSize of [7, 64, 1000, 4096]) expect(await scan(file, { sliceSize })).toEqual(whole)
    expect(whole.ok && whole.patches.length).toBe(2)
  })

  it('refuses (metadata-too-large) rather than pass a file whose metadata needs more than the read cap', async () => {
    const file = concat(ftyp, mdat(), box('moov', mvhd, box('udta', box('XMP_', xmpPacket(`<x a='${'x'.repeat(40_000)}'/>`)))))
    expect(await scan(file, { sliceSize: 1024, maxMetadataBytes: 16 * 1024 })).toEqual({ ok: false, reason: 'metadata-too-large' })
    expect((await scan(file, { sliceSize: 1024, maxMetadataBytes: 64 * 1024 })).ok).toBe(true)
  })

  it('stops after maxElements box headers', async () => {
    const many = concat(ftyp, ...Array.from({ length: 300 }, () => box('free')), box('moov', mvhd))
    expect(await scan(many, { maxElements: 100 })).toEqual({ ok: false, reason: 'too-complex' })
    expect((await scan(many, { maxElements: 1000 })).ok).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------

function vintSize(value: number, length?: number): Uint8Array {
  const n = length ?? [1, 2, 3, 4, 5, 6, 7, 8].find(l => value < 2 ** (7 * l) - 1)!
  const out = new Uint8Array(n)
  let rest = value
  for (let i = n - 1; i >= 0; i--) {
    out[i] = rest % 256
    rest = Math.floor(rest / 256)
  }
  out[0]! |= 0x80 >> (n - 1)
  return out
}

function idBytes(id: number): Uint8Array {
  const bytes: number[] = []
  for (let rest = id; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return new Uint8Array(bytes)
}

function el(id: number, ...body: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const payload = concat(...body)
  return concat(idBytes(id), vintSize(payload.length), payload)
}

const UNKNOWN_SIZE = new Uint8Array([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
const ebmlHeader = el(0x1A45DFA3, el(0x4282, text('webm')))
const info = el(0x1549A966, el(0x2AD7B1, new Uint8Array([0x0F, 0x42, 0x40])))
const tracks = el(0x1654AE6B, el(0xAE, el(0xD7, new Uint8Array([1]))))
const cluster = el(0x1F43B675, el(0xE7, new Uint8Array([0])), el(0xA3, new Uint8Array(3000).fill(0xCD)))
const simpleTag = (name: string, value: string) => el(0x67C8, el(0x45A3, text(name)), el(0x4487, text(value)))
const tags = (...simpleTags: Uint8Array[]) => el(0x1254C367, el(0x7373, el(0x63C0), ...simpleTags))
const seekHead = (entries: [number, number][]) => el(0x114D9B74, ...entries.map(([id, position]) => el(0x4DBB, el(0x53AB, idBytes(id)), el(0x53AC, u32(position)))))

describe('scanVideoLocation on WebM / Matroska elements', () => {
  it('turns a LOCATION SimpleTag into a Void element of the same size and keeps the other tags', async () => {
    const location = simpleTag('LOCATION', '+23.5505-046.6333+760.000/')
    const file = concat(ebmlHeader, el(0x18538067, info, tracks, cluster, tags(simpleTag('ENCODER', 'Lavf59'), location)))
    const result = await scan(file)
    expect(result).toMatchObject({ ok: true, container: 'matroska', removed: ['/Segment/Tags/Tag/SimpleTag[LOCATION]'] })
    if (!result.ok) return
    expect(result.patches).toEqual([{ offset: indexOf(file, location), bytes: voidElement(location.length) }])
    const clean = patched(file, result.patches)
    expect(indexOf(clean, position)).toBe(-1)
    expect(indexOf(clean, text('ENCODER'))).toBeGreaterThan(0)
    expect(await scan(clean)).toEqual({ ok: true, container: 'matroska', patches: [], removed: [] })
  })

  it('matches GPS and coordinates names in any case, inside nested SimpleTags too', async () => {
    const nested = el(0x67C8, el(0x45A3, text('RECORDING')), simpleTag('gps_coordinates', '23,-46'))
    const file = concat(ebmlHeader, el(0x18538067, info, tags(nested, simpleTag('com.apple.quicktime.location.ISO6709', '+23-046/'), simpleTag('TITLE', 'Festa'))))
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual([
      '/Segment/Tags/Tag/SimpleTag[RECORDING]/SimpleTag[gps_coordinates]',
      '/Segment/Tags/Tag/SimpleTag[com.apple.quicktime.location.ISO6709]',
    ])
  })

  it('finds Tags past a Cluster of unknown size through the SeekHead, in a Segment of unknown size', async () => {
    const location = simpleTag('LOCATION', '+23.5505-046.6333+760.000/')
    const head = seekHead([[0x1254C367, 0]])
    const liveCluster = concat(idBytes(0x1F43B675), UNKNOWN_SIZE, el(0xE7, new Uint8Array([0])), el(0xA3, new Uint8Array(500)))
    const build = (position: number) => {
      const segmentBody = concat(seekHead([[0x1254C367, position]]), info, tracks, liveCluster)
      return { segmentBody, file: concat(ebmlHeader, idBytes(0x18538067), UNKNOWN_SIZE, segmentBody, tags(location)) }
    }
    const { segmentBody } = build(0)
    expect(head.length).toBe(seekHead([[0x1254C367, segmentBody.length]]).length)
    const { file } = build(segmentBody.length)
    const result = await scan(file)
    expect(result.ok && result.removed).toEqual(['/Segment/Tags/Tag/SimpleTag[LOCATION]'])
  })

  it('answers unreadable for an EBML file without a Segment and for a Tags element that breaks its bounds', async () => {
    expect(await scan(concat(ebmlHeader, info))).toEqual({ ok: false, reason: 'unreadable' })
    const broken = tags(simpleTag('LOCATION', 'x'))
    broken[broken.length - 4] = 0x9F
    expect(await scan(concat(ebmlHeader, el(0x18538067, info, broken)))).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('builds a Void element of any total size, with the shortest size field that adds up', () => {
    for (const total of [2, 3, 128, 129, 130, 16_384, 16_385, 16_386, 70_000]) {
      const bytes = voidElement(total)
      expect(bytes.length).toBe(total)
      expect(bytes[0]).toBe(0xEC)
      const length = Math.clz32(bytes[1]!) - 23
      let size = bytes[1]! & (0xFF >> length)
      for (let i = 2; i <= length; i++) size = size * 256 + bytes[i]!
      expect(1 + length + size).toBe(total)
    }
  })
})

describe('patches on bytes and on Blobs', () => {
  it('applies only the part of a patch that falls in a chunk', () => {
    const chunk = new Uint8Array(10)
    applyPatches(chunk, 100, [{ offset: 95, bytes: new Uint8Array(8).fill(1) }, { offset: 108, bytes: new Uint8Array(5).fill(2) }, { offset: 200, bytes: new Uint8Array(1).fill(3) }])
    expect([...chunk]).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 2, 2])
  })

  it('stitches a Blob of the same size around the patches, and returns the file itself when there are none', async () => {
    const file = new Blob([new Uint8Array(1000).map((_, i) => i % 251)], { type: 'video/mp4' })
    const patches = [{ offset: 0, bytes: new Uint8Array(3).fill(9) }, { offset: 500, bytes: new Uint8Array(10) }, { offset: 990, bytes: new Uint8Array(10).fill(7) }]
    const blob = patchedBlob(file, patches)
    expect(blob.size).toBe(1000)
    expect(blob.type).toBe('video/mp4')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(patched(new Uint8Array(await file.arrayBuffer()), patches))
    expect(patchedBlob(file, [])).toBe(file)
    expect(() => patchedBlob(file, [{ offset: 995, bytes: new Uint8Array(10) }])).toThrow(RangeError)
  })

  it('leaves the project\'s own location-free fixture as it is, and strips a hand-built one', async () => {
    const clip = new Blob([readFileSync(resolve(import.meta.dirname, '../fixtures/clip-2s.mp4'))])
    expect(await withoutVideoLocation(clip, 'video/mp4')).toEqual({ ok: true, blob: clip, removed: [] })
    const file = new Blob([concat(ftyp, mdat(), box('moov', mvhd, box('udta', xyz())))])
    const stripped = await withoutVideoLocation(file, 'video/quicktime')
    expect(stripped.ok && stripped.blob.size).toBe(file.size)
    expect(stripped.ok && indexOf(new Uint8Array(await stripped.blob.arrayBuffer()), position)).toBe(-1)
    expect(await withoutVideoLocation(new Blob([text('nope')]), 'video/mp4')).toEqual({ ok: false, reason: 'no-moov' })
  })
})
