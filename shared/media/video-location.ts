/**
 * Finds where a video says where it was recorded, and answers the bytes that blank it: a list of
 * patches of the same length as what they cover, so that no byte of media data moves, the file
 * keeps its size (the protocol signs it), and the same patches serve the phone (a Blob stitched
 * around them) and the server (written in place, or folded into a storage-side copy).
 *
 * Pure: no Node or DOM API, only a ranged reader, so the page and the server run the same code.
 *
 * MP4 / QuickTime: top-level box headers are walked one after the other (the media data between
 * them is never parsed, whether `moov` sits first or last), and every container a common reader
 * looks into for user data is descended (see CONTAINERS; sample entries too). What is blanked:
 * - `©xyz` / `@xyz` (QuickTime user data, or an iTunes-style `ilst` item), 3GPP `loci`, and the
 *   dash-cam GPS logs exiftool knows (`gps `, `GPS `, `gps0`): renamed to `free`, payload zeroed,
 *   because a zero-filled `©xyz` would still read as a position of 0, 0;
 * - Apple's `meta` `keys` tables (all of them: exiftool reads the last, ffprobe the first): a key
 *   naming a location (`com.apple.quicktime.location.*`) gets a harmless name of the same length,
 *   and its value in `ilst` (an item typed by the key's 1-based index) becomes `free`; the other
 *   keys keep their indices, so the other values stay readable;
 * - a freeform `----` item whose `name` names a location, and any `ilst` item or QuickTime text
 *   whose value reads as an ISO 6709 position, whatever it is called;
 * - XMP (`uuid` BE7ACFCB-97A9-42E8-9C71-999491E3AFAC, or QuickTime's `XMP_`) that mentions GPS or
 *   a location: the whole packet becomes `free` (there is nothing in it a player needs).
 * A timed metadata track of positions (`camm`, `gpmd`, a located `mebx`) is refused instead:
 * `location-track`.
 *
 * WebM / Matroska: no standard location element, but tags can carry one (ffmpeg copies a phone's
 * `location` into a `LOCATION` tag). A `SimpleTag` whose `TagName` speaks of a location, or whose
 * value is a position, and an Info title holding a position become `Void` elements of the same
 * total size. Segment children are walked by their headers; a Cluster of unknown size (live
 * recorders such as MediaRecorder write them) cannot be skipped without reading every block, so
 * the walk stops there and Tags further on are found through the SeekHead.
 *
 * Reading is bounded, so that a crafted file costs a confirm a few storage requests, never tens
 * of thousands. Every read goes through a windowed reader (windowed-reader.ts: a small file whole,
 * else windows of 1 MiB growing while the walk steps forward, at most `maxReads` reads). A box
 * whose insides are walked is read in slices aligned on it, never more than 16 MiB in all
 * (`metadata-too-large`). At most `maxElements` box or element headers are read, and containers
 * nest at most MAX_DEPTH deep (`too-complex`).
 */
import { readMp4Duration, type ByteReader } from './mp4-duration'
import { readMatroskaDuration } from './matroska-duration'
import { readVideoCodec, type VideoCodec } from './video-codec'
import { ReadBudgetExceeded, WINDOWED_READER_DEFAULTS, windowedReader } from './windowed-reader'

export type { ByteReader } from './mp4-duration'

/** Bytes to write at `offset`, replacing exactly `bytes.length` bytes. */
export interface BytePatch {
  offset: number
  bytes: Uint8Array
}

export type VideoContainer = 'mp4' | 'matroska'

/**
 * `no-moov`: an MP4/QuickTime file without a readable `moov` (not what it claims: confirm answers
 * 422 CONTENT_MISMATCH). `unreadable`: a box or element tree that breaks its own bounds, or a
 * Matroska file without a Segment. `metadata-too-large`: more metadata than the read cap.
 * `too-complex`: more box or element headers than `maxElements`, nesting deeper than
 * `MAX_DEPTH`, or a structure that needs more reads than `maxReads`. In these four the file cannot
 * be vouched for, so it must not be published as is. `location-track`: a timed metadata track
 * that can carry positions sample by sample (Google's `camm`, GoPro's `gpmd`, an Apple `mebx`
 * track whose keys name a location); its samples lie in the media data, which is not rewritten.
 */
export type LocationScanFailure = 'no-moov' | 'unreadable' | 'metadata-too-large' | 'too-complex' | 'location-track'

export type LocationScan
  = | { ok: true, container: VideoContainer, patches: BytePatch[], removed: string[], durationSec?: number | null, videoCodec?: VideoCodec | null }
    | { ok: false, reason: LocationScanFailure }

export interface LocationScanOptions {
  /** Decided by the content type; when absent, EBML's magic number says Matroska, anything else is read as MP4. */
  container?: VideoContainer
  /** Metadata is fetched in aligned slices of this size. */
  sliceSize?: number
  /** At most this many bytes are fetched in slices, in all. */
  maxMetadataBytes?: number
  /** At most this many box or element headers are read (a real file has hundreds, a fragmented one a few thousand). */
  maxElements?: number
  /** At most this many reads of the file (ranged GETs on S3), through a windowed reader (windowed-reader.ts). */
  maxReads?: number
  /** The windowed reader's first window, and its largest. */
  window?: number
  maxWindow?: number
  /** A file of at most this many bytes is read whole, in one read. */
  wholeFileBelow?: number
  /**
   * Also read how long the video plays (`durationSec`, null when its container states no length):
   * through the same windows, so that on S3 the `moov` the scan fetched answers `mvhd` too. The
   * picture's codec (`videoCodec`, video-codec.ts) is read with it, through the same windows.
   */
  measureDuration?: boolean
}

export const LOCATION_SCAN_LIMITS = {
  sliceSize: 1024 * 1024,
  maxMetadataBytes: 16 * 1024 * 1024,
  maxElements: 10_000,
  maxReads: WINDOWED_READER_DEFAULTS.maxReads,
} as const

/** Containers nested deeper than this (boxes, or Matroska SimpleTags) are not a real file's. */
export const MAX_DEPTH = 64

class ScanStop extends Error {
  constructor(readonly reason: LocationScanFailure) {
    super(reason)
  }
}

/** Key, tag and XMP names that hold a position (Apple's `com.apple.quicktime.location.*` among them). */
export function namesALocation(name: string): boolean {
  return /locat|gps|coordinat|iso6709|latitude|longitude|altitude/i.test(name)
}

const XMP_LOCATION = /GPS|Location|photoshop:(City|State|Country)|CountryName/i

export function containerOfContentType(contentType: string): VideoContainer {
  return /webm|matroska/i.test(contentType) ? 'matroska' : 'mp4'
}

type ScanLimits = Required<Pick<LocationScanOptions, 'sliceSize' | 'maxMetadataBytes' | 'maxElements'>>

/** Where headers and payloads are read from: the whole file, or one box of it. */
interface ByteSource {
  /** Up to `length` bytes at `start` (fewer at the end), for a header. */
  head(start: number, length: number): Promise<Uint8Array>
  /** Exactly the bytes [start, end), counted against the metadata budget. */
  bytes(start: number, end: number): Promise<Uint8Array>
}

/**
 * The file seen through the scan's limits. At the top level, a header is a small read of its own
 * (between two top-level headers lies the media data, never read); a box whose insides are
 * walked is read as a `Region`, in slices.
 */
class BoundedFile implements ByteSource {
  private fetched = 0
  private headers = 0

  constructor(
    private readonly read: ByteReader,
    readonly size: number,
    readonly limits: ScanLimits,
  ) {}

  async head(start: number, length: number): Promise<Uint8Array> {
    this.countHeader()
    const end = Math.min(this.size, start + length)
    return end > start ? this.read(start, end) : new Uint8Array(0)
  }

  async bytes(start: number, end: number): Promise<Uint8Array> {
    if (start < 0 || end > this.size || end < start) throw new ScanStop('unreadable')
    this.count(end - start)
    if (end === start) return new Uint8Array(0)
    const bytes = await this.read(start, end)
    // A file shorter than the size it was given: its tree cannot be trusted.
    if (bytes.length !== end - start) throw new ScanStop('unreadable')
    return bytes
  }

  region(start: number, end: number): Region {
    return new Region(this, start, end)
  }

  countHeader() {
    if (++this.headers > this.limits.maxElements) throw new ScanStop('too-complex')
  }

  count(bytes: number) {
    this.fetched += bytes
    if (this.fetched > this.limits.maxMetadataBytes) throw new ScanStop('metadata-too-large')
  }
}

/**
 * One box of the file (a `moov`, say), read in slices aligned on its start and cut at its end, so
 * that walking its children costs a read per slice rather than a read per header, and nothing
 * outside the box is fetched.
 */
class Region implements ByteSource {
  private readonly slices = new Map<number, Uint8Array>()

  constructor(private readonly file: BoundedFile, readonly start: number, readonly end: number) {}

  countHeader() {
    this.file.countHeader()
  }

  async head(start: number, length: number): Promise<Uint8Array> {
    this.file.countHeader()
    return this.bytes(start, Math.min(this.end, start + length))
  }

  async bytes(start: number, end: number): Promise<Uint8Array> {
    if (start < this.start || end > this.end || end < start) throw new ScanStop('unreadable')
    if (end === start) return new Uint8Array(0)
    const { sliceSize } = this.file.limits
    const first = Math.floor((start - this.start) / sliceSize)
    const last = Math.floor((end - 1 - this.start) / sliceSize)
    const pieces: Uint8Array[] = []
    for (let index = first; index <= last; index++) pieces.push(await this.slice(index))
    const base = this.start + first * sliceSize
    if (pieces.length === 1) return pieces[0]!.subarray(start - base, end - base)
    const out = new Uint8Array(end - start)
    let at = base
    for (const piece of pieces) {
      const from = Math.max(start, at)
      const to = Math.min(end, at + piece.length)
      out.set(piece.subarray(from - at, to - at), from - start)
      at += piece.length
    }
    return out
  }

  private async slice(index: number): Promise<Uint8Array> {
    const cached = this.slices.get(index)
    if (cached) return cached
    const start = this.start + index * this.file.limits.sliceSize
    const bytes = await this.file.bytes(start, Math.min(this.end, start + this.file.limits.sliceSize))
    this.slices.set(index, bytes)
    return bytes
  }
}

/** Finds every location-bearing item of a video and the patches that blank it. */
export async function scanVideoLocation(read: ByteReader, size: number, options: LocationScanOptions = {}): Promise<LocationScan> {
  const limits = {
    sliceSize: options.sliceSize ?? LOCATION_SCAN_LIMITS.sliceSize,
    maxMetadataBytes: options.maxMetadataBytes ?? LOCATION_SCAN_LIMITS.maxMetadataBytes,
    maxElements: options.maxElements ?? LOCATION_SCAN_LIMITS.maxElements,
  }
  const windowed = windowedReader(read, size, {
    maxReads: options.maxReads, window: options.window, maxWindow: options.maxWindow, wholeFileBelow: options.wholeFileBelow,
  })
  const file = new BoundedFile(windowed, size, limits)
  try {
    const container = options.container ?? (await isEbml(file) ? 'matroska' : 'mp4')
    const found = new Findings(limits.maxMetadataBytes)
    if (container === 'matroska') await scanMatroska(file, found)
    else await scanMp4(file, found)
    const scan = { ok: true as const, container, patches: found.sortedPatches(), removed: found.removed }
    if (!options.measureDuration) return scan
    return { ...scan, durationSec: await durationOf(container, windowed, size), videoCodec: await readVideoCodec(windowed, size, container) }
  }
  catch (error) {
    if (error instanceof ScanStop) return { ok: false, reason: error.reason }
    if (error instanceof ReadBudgetExceeded) return { ok: false, reason: 'too-complex' }
    throw error
  }
}

/** The length a scanned video states, read through the scan's windows (a spent read budget: unknown). */
async function durationOf(container: VideoContainer, read: ByteReader, size: number): Promise<number | null> {
  try {
    return container === 'matroska' ? await readMatroskaDuration(read, size) : await readMp4Duration(read, size)
  }
  catch (error) {
    if (error instanceof ReadBudgetExceeded) return null
    throw error
  }
}

/** Writes the patches that fall inside `chunk`, which holds the file's bytes from `chunkStart` on. */
export function applyPatches(chunk: Uint8Array, chunkStart: number, patches: readonly BytePatch[]): void {
  const chunkEnd = chunkStart + chunk.length
  for (const patch of patches) {
    const from = Math.max(patch.offset, chunkStart)
    const to = Math.min(patch.offset + patch.bytes.length, chunkEnd)
    if (from >= to) continue
    chunk.set(patch.bytes.subarray(from - patch.offset, to - patch.offset), from - chunkStart)
  }
}

class Findings {
  readonly patches: BytePatch[] = []
  readonly removed: string[] = []
  /** Indices of `keys` entries that name a location, in any `keys` table seen so far. */
  readonly locationKeys = new Set<number>()
  constructor(private readonly maxPatchBytes: number) {}

  add(offset: number, bytes: Uint8Array, what: string) {
    this.patches.push({ offset, bytes })
    this.removed.push(what)
  }

  /** Zeros of `length` bytes, refused beyond the cap (a patch is held in memory). */
  zeros(length: number): Uint8Array {
    if (length > this.maxPatchBytes) throw new ScanStop('metadata-too-large')
    return new Uint8Array(length)
  }

  sortedPatches(): BytePatch[] {
    const sorted = [...this.patches].sort((a, b) => a.offset - b.offset)
    for (let i = 1; i < sorted.length; i++) {
      // Only leaves are blanked, never a box and one inside it: an overlap is a bug here.
      if (sorted[i]!.offset < sorted[i - 1]!.offset + sorted[i - 1]!.bytes.length) throw new Error('overlapping location patches')
    }
    return sorted
  }
}

// ---------------------------------------------------------------------------------------------
// MP4 / QuickTime

interface Box {
  type: string
  start: number
  headerSize: number
  end: number
  /** The size is in a 64-bit field after the type (size field 1). */
  largeSize: boolean
  /** The 16-byte user type of a `uuid` box, else empty. */
  userType: Uint8Array
}

/** Boxes whose whole payload is a position or a track of positions. */
const LOCATION_BOXES = new Set(['\u00A9xyz', '@xyz', 'loci', 'gps ', 'GPS ', 'gps0'])
/**
 * Every container a common reader walks for user data (ffmpeg reads a `udta` inside any of them,
 * `mdia` and a fragment's `moof`/`traf` included); only their children's headers are read, never
 * the sample tables or `mdat`.
 */
const CONTAINERS = new Set(['moov', 'trak', 'udta', 'mdia', 'minf', 'stbl', 'edts', 'dinf', 'mvex', 'moof', 'traf', 'tref', 'sinf', 'schi'])
/** What a top-level box that does not fit in the file may not be: something the readers look into. */
const LOOKED_INTO = new Set([...CONTAINERS, 'meta', 'ilst', 'keys', 'uuid', 'XMP_', ...LOCATION_BOXES])
/** Sample entries of timed metadata that can carry positions in every sample. */
const LOCATION_TRACKS = new Set(['camm', 'gpmd'])
/** An ISO 6709 position as phones write it (latitude in 2 digits or more, longitude in 3), anywhere in a text. */
const ISO6709_VALUE = /[+-]\d{2,}(?:\.\d+)?[+-]\d{3,}(?:\.\d+)?/
/** `ilst` values read to look for a position in them: a position is short, cover art is not. */
const MAX_ITEM_READ = 64 * 1024
const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac'

function fourCC(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!)
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, byte => byte.toString(16).padStart(2, '0')).join('')
}

/** The box at `offset` within [offset, limit), or null when its header does not fit there. */
async function readBox(source: ByteSource, offset: number, limit: number): Promise<Box | null> {
  if (offset + 8 > limit) return null
  const bytes = await source.head(offset, 32)
  if (bytes.length < 8) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const type = fourCC(bytes, 4)
  let size = view.getUint32(0)
  let headerSize = 8
  const largeSize = size === 1
  if (largeSize) {
    if (bytes.length < 16) return null
    const large = view.getBigUint64(8)
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) return null
    size = Number(large)
    headerSize = 16
  }
  else if (size === 0) {
    // "To the end of the file": of its parent, for a box that is not at the top.
    size = limit - offset
  }
  let userType = new Uint8Array(0)
  // A `uuid` too short for its user type is a box like any other to the readers: they skip it.
  if (type === 'uuid' && size >= headerSize + 16) {
    if (bytes.length < headerSize + 16) return null
    userType = bytes.slice(headerSize, headerSize + 16)
    headerSize += 16
  }
  if (size < headerSize || offset + size > limit) return null
  return { type, start: offset, headerSize, end: offset + size, largeSize, userType }
}

/** The boxes in [from, to); a header that breaks the parent's bounds makes the tree unreadable. */
async function children(region: Region, from: number, to: number): Promise<Box[]> {
  const boxes: Box[] = []
  let offset = from
  while (offset < to) {
    // A few padding bytes at the end of a container are tolerated (some muxers write a zero u32).
    if (to - offset < 8) break
    const box = await readBox(region, offset, to)
    if (!box) throw new ScanStop('unreadable')
    boxes.push(box)
    offset = box.end
  }
  return boxes
}

async function scanMp4(file: BoundedFile, found: Findings): Promise<void> {
  let offset = 0
  let moovs = 0
  while (offset < file.size) {
    // At the top, a header that does not fit ends the walk: a truncated tail or trailing junk;
    // unless it names a box the readers look into, which they read as far as the file goes.
    const box = await readBox(file, offset, file.size)
    if (!box) {
      const header = await file.head(offset, 8)
      const type = header.length === 8 ? fourCC(header, 4) : ''
      // A cut-off moov and no whole one before it: a file without a readable moov.
      if (type === 'moov' && !moovs) throw new ScanStop('no-moov')
      if (LOOKED_INTO.has(type)) throw new ScanStop('unreadable')
      break
    }
    if (box.type === 'moov') moovs++
    await visitBox(file.region(box.start, box.end), box, '', 0, found)
    offset = box.end
  }
  if (!moovs) throw new ScanStop('no-moov')
}

async function visitBox(region: Region, box: Box, parent: string, depth: number, found: Findings): Promise<void> {
  if (depth > MAX_DEPTH) throw new ScanStop('too-complex')
  const path = `${parent}/${box.type}`
  if (LOCATION_BOXES.has(box.type)) {
    blankBox(box, path, found)
  }
  else if (CONTAINERS.has(box.type)) {
    for (const child of await children(region, box.start + box.headerSize, box.end)) await visitBox(region, child, path, depth + 1, found)
  }
  else if (box.type === 'stsd') {
    await checkSampleEntries(region, box, path, depth, found)
  }
  else if (box.type === 'meta') {
    await visitMeta(region, box, path, depth, found)
  }
  else if ((box.type === 'uuid' && hex(box.userType) === XMP_UUID) || box.type === 'XMP_') {
    const payload = await region.bytes(box.start + box.headerSize, box.end)
    // XMP is UTF-8 by far most often; dropping NULs also reads UTF-16 and UTF-32 packets.
    if (XMP_LOCATION.test(latin1(payload).replace(/\0/g, ''))) blankBox(box, `${path}(XMP)`, found)
  }
  else if (parent.endsWith('/udta') && box.type.charCodeAt(0) === 0xA9 && box.end - box.start <= MAX_ITEM_READ) {
    // A QuickTime text (©nam, ©cmt…) that holds a position, whatever it is called.
    if (ISO6709_VALUE.test(latin1(await region.bytes(box.start + box.headerSize, box.end)))) blankBox(box, `${path}(position)`, found)
  }
}

/**
 * A track whose samples are positions is refused rather than blanked: its samples are spread
 * through the media data, which the scan never rewrites. Apple's `mebx` tracks are common (Live
 * Photo and orientation data) and refused only when their keys name a location.
 */
async function checkSampleEntries(region: Region, stsd: Box, path: string, depth: number, found: Findings) {
  const base = stsd.start + stsd.headerSize
  const bytes = await region.bytes(base, stsd.end)
  if (bytes.length < 8) throw new ScanStop('unreadable')
  for (let at = 8; at + 8 <= bytes.length;) {
    region.countHeader()
    const size = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0)
    if (size < 8 || at + size > bytes.length) throw new ScanStop('unreadable')
    const type = fourCC(bytes, at + 4)
    if (LOCATION_TRACKS.has(type)) throw new ScanStop('location-track')
    if (type === 'mebx' && namesALocation(latin1(bytes.subarray(at + 8, at + size)))) throw new ScanStop('location-track')
    await visitEntryUserData(region, bytes.subarray(at, at + size), base + at, `${path}/${type}`, depth + 1, found)
    at += size
  }
}

/** Box types that, inside a sample entry, ffmpeg reads as user data. */
const ENTRY_USER_DATA = new Set(['udta', 'meta', 'XMP_', ...LOCATION_BOXES])

/**
 * A sample entry's own fields differ in length by kind (video, sound, text…) before its child
 * boxes, and ffmpeg reads a `udta` among those children: any user data box found in the entry
 * (its type where a box's would be, with a size that fits) is visited like one anywhere else.
 */
async function visitEntryUserData(region: Region, entry: Uint8Array, start: number, path: string, depth: number, found: Findings) {
  const view = new DataView(entry.buffer, entry.byteOffset, entry.byteLength)
  for (let at = 8; at + 8 <= entry.length;) {
    const size = view.getUint32(at)
    if (ENTRY_USER_DATA.has(fourCC(entry, at + 4)) && size >= 8 && at + size <= entry.length) {
      const box = await readBox(region, start + at, start + entry.length)
      if (box) {
        await visitBox(region, box, path, depth, found)
        at += size
        continue
      }
    }
    at++
  }
}

/** Renamed to `free`, payload zeroed, same length: a player skips it, a reader finds nothing. */
function blankBox(box: Box, what: string, found: Findings) {
  const bytes = found.zeros(box.end - box.start)
  const view = new DataView(bytes.buffer)
  if (box.largeSize) {
    view.setUint32(0, 1)
    view.setBigUint64(8, BigInt(box.end - box.start))
  }
  else {
    view.setUint32(0, box.end - box.start)
  }
  bytes.set([0x66, 0x72, 0x65, 0x65], 4)
  found.add(box.start, bytes, what)
}

function latin1(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192))
  return text
}

/**
 * `meta` is a full box in ISO files (4 bytes of version and flags first) and a plain container in
 * QuickTime files (its first child, `hdlr`, straight away): the bytes tell which.
 *
 * An `ilst` item is blanked when its key (in any `keys` table of the file: readers disagree on
 * which table counts when there are several) names a location, when it is a location box, when it
 * is a freeform `----` item whose name names a location, or when its value reads as a position,
 * whatever it is called.
 */
async function visitMeta(region: Region, meta: Box, path: string, depth: number, found: Findings) {
  const payload = meta.start + meta.headerSize
  const probe = await region.head(payload, 8)
  const fullBox = !(probe.length >= 8 && fourCC(probe, 4) === 'hdlr')
  const boxes = await children(region, payload + (fullBox ? 4 : 0), meta.end)
  for (const keys of boxes.filter(box => box.type === 'keys')) {
    for (const index of await blankLocationKeys(region, keys, `${path}/keys`, found)) found.locationKeys.add(index)
  }
  for (const box of boxes) {
    if (box.type === 'keys') continue
    if (box.type !== 'ilst') {
      await visitBox(region, box, path, depth + 1, found)
      continue
    }
    for (const item of await children(region, box.start + box.headerSize, box.end)) {
      const why = await locationItem(region, item, found)
      if (why) blankBox(item, `${path}/ilst/${why}`, found)
    }
  }
}

/** Why an `ilst` item speaks of a location (its name in the removed list), or null. */
async function locationItem(region: Region, item: Box, found: Findings): Promise<string | null> {
  // With a `keys` table, an item's type is the 1-based index of its key.
  const bytes = new Uint8Array([...item.type].map(char => char.charCodeAt(0)))
  const index = new DataView(bytes.buffer).getUint32(0)
  if (found.locationKeys.has(index)) return `#${index}`
  if (LOCATION_BOXES.has(item.type)) return item.type
  if (item.end - item.start > MAX_ITEM_READ) return null
  const payload = await region.bytes(item.start + item.headerSize, item.end)
  if (item.type === '----') {
    const name = freeformName(payload)
    if (name !== null && namesALocation(name)) return `----[${name}]`
  }
  return ISO6709_VALUE.test(latin1(payload)) ? `${index > 0xFFFF ? item.type : `#${index}`}(position)` : null
}

/** The `name` of a freeform item (mean, name, data boxes, each a full box), or null. */
function freeformName(payload: Uint8Array): string | null {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength)
  for (let at = 0; at + 12 <= payload.length;) {
    const size = view.getUint32(at)
    if (size < 8 || at + size > payload.length) return null
    if (fourCC(payload, at + 4) === 'name') return latin1(payload.subarray(at + 12, at + size))
    at += size
  }
  return null
}

/** `removed....`, as long as the name it replaces, so the table and every index into it stay valid. */
function harmlessKey(length: number): string {
  return 'removed'.padEnd(length, '.').slice(0, length)
}

/** Renames the keys that name a location; answers their 1-based indices. */
async function blankLocationKeys(region: Region, keys: Box, path: string, found: Findings): Promise<Set<number>> {
  const start = keys.start + keys.headerSize
  const bytes = await region.bytes(start, keys.end)
  if (bytes.length < 8) throw new ScanStop('unreadable')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint32(4)
  const indices = new Set<number>()
  let at = 8
  for (let index = 1; index <= count; index++) {
    if (at + 8 > bytes.length) throw new ScanStop('unreadable')
    const keySize = view.getUint32(at)
    if (keySize < 8 || at + keySize > bytes.length) throw new ScanStop('unreadable')
    const name = latin1(bytes.subarray(at + 8, at + keySize))
    const harmless = harmlessKey(keySize - 8)
    // A key renamed by an earlier pass whose value was not blanked yet (a crash between two
    // writes): its value is still found and blanked, and the key is left as it is.
    if (name === harmless) indices.add(index)
    else if (namesALocation(name)) {
      indices.add(index)
      found.add(start + at + 8, new TextEncoder().encode(harmless), `${path}[${name}]`)
    }
    at += keySize
  }
  return indices
}

// ---------------------------------------------------------------------------------------------
// Matroska / WebM (EBML)

const EBML_ID = 0x1A45DFA3
const SEGMENT = 0x18538067
const SEEK_HEAD = 0x114D9B74
const SEEK = 0x4DBB
const SEEK_ID = 0x53AB
const SEEK_POSITION = 0x53AC
const TAGS = 0x1254C367
const TAG = 0x7373
const SIMPLE_TAG = 0x67C8
const TAG_NAME = 0x45A3
const INFO = 0x1549A966
/** Info's Title, MuxingApp and WritingApp: texts ffprobe shows as the file's tags. */
const INFO_TEXTS = new Map([[0x7BA9, 'Title'], [0x4D80, 'MuxingApp'], [0x5741, 'WritingApp']])
const TAG_STRING = 0x4487
const VOID = 0xEC
/** SeekHeads pointing at SeekHeads: a real file has one or two. */
const MAX_SEEK_TARGETS = 64

interface Element {
  id: number
  start: number
  dataStart: number
  /** Null for an unknown size (the element runs to the end of its parent). */
  end: number | null
}

async function isEbml(file: BoundedFile): Promise<boolean> {
  const bytes = await file.head(0, 4)
  return bytes.length === 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) === EBML_ID
}

/** An EBML variable-length integer: its length in bytes, and its value (with or without the marker bit). */
function readVint(bytes: Uint8Array, at: number, maxLength: number, keepMarker: boolean): { length: number, value: number, unknown: boolean } | null {
  const first = bytes[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (length > maxLength || at + length > bytes.length) return null
  let value = keepMarker ? first : first & (0xFF >> length)
  let allOnes = value === (0xFF >> length)
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!
    allOnes &&= bytes[at + i] === 0xFF
  }
  const unknown = !keepMarker && allOnes
  if (!unknown && value > Number.MAX_SAFE_INTEGER) return null
  return { length, value, unknown }
}

function parseElement(bytes: Uint8Array, at: number, offset: number): Element | null {
  const id = readVint(bytes, at, 4, true)
  if (!id) return null
  const size = readVint(bytes, at + id.length, 8, false)
  if (!size) return null
  const dataStart = offset + id.length + size.length
  return { id: id.value, start: offset, dataStart, end: size.unknown ? null : dataStart + size.value }
}

/** The element at `offset` whose known end stays within `limit`, or null. */
async function readElement(file: BoundedFile, offset: number, limit: number): Promise<Element | null> {
  const bytes = await file.head(offset, 12)
  const element = parseElement(bytes, 0, offset)
  if (!element || element.dataStart > limit || (element.end !== null && element.end > limit)) return null
  return element
}

/** The elements of an in-memory range; `base` is the file offset of `bytes[0]`. Each counts against the header budget. */
function elementsIn(file: BoundedFile, bytes: Uint8Array, base: number, from: number, to: number): Element[] {
  const out: Element[] = []
  let offset = from
  while (offset < to) {
    file.countHeader()
    const element = parseElement(bytes.subarray(offset - base, to - base), 0, offset)
    if (!element || element.end === null || element.end > to) throw new ScanStop('unreadable')
    out.push(element)
    offset = element.end
  }
  return out
}

async function scanMatroska(file: BoundedFile, found: Findings): Promise<void> {
  let offset = 0
  let segments = 0
  while (offset < file.size) {
    const element = await readElement(file, offset, file.size)
    if (!element) break
    if (offset === 0 && element.id !== EBML_ID) throw new ScanStop('unreadable')
    if (element.id === SEGMENT) {
      segments++
      await scanSegment(file, element, found)
    }
    if (element.end === null) break
    offset = element.end
  }
  if (!segments) throw new ScanStop('unreadable')
}

async function scanSegment(file: BoundedFile, segment: Element, found: Findings): Promise<void> {
  const end = segment.end ?? file.size
  const seen = new Set<number>()
  const targets: number[] = []
  let offset = segment.dataStart
  while (offset < end) {
    const element = await readElement(file, offset, end)
    if (!element) break
    seen.add(offset)
    if (element.id === TAGS) await blankLocationTags(file, element, found)
    else if (element.id === INFO) await blankPositionTitles(file, element, found)
    else if (element.id === SEEK_HEAD) targets.push(...await seekTargets(file, element, segment.dataStart))
    // An element of unknown size (a live recorder's Cluster) can only be crossed by reading all of it.
    if (element.end === null) break
    offset = element.end
  }
  for (let i = 0; i < targets.length && i < MAX_SEEK_TARGETS; i++) {
    const target = targets[i]!
    if (seen.has(target) || target >= end) continue
    seen.add(target)
    const element = await readElement(file, target, end)
    if (!element) continue
    if (element.id === TAGS) await blankLocationTags(file, element, found)
    else if (element.id === SEEK_HEAD) targets.push(...await seekTargets(file, element, segment.dataStart))
  }
}

/** Where a SeekHead says the Tags and further SeekHeads are. */
async function seekTargets(file: BoundedFile, seekHead: Element, segmentData: number): Promise<number[]> {
  if (seekHead.end === null) throw new ScanStop('unreadable')
  const bytes = await file.bytes(seekHead.dataStart, seekHead.end)
  const targets: number[] = []
  for (const seek of elementsIn(file, bytes, seekHead.dataStart, seekHead.dataStart, seekHead.end)) {
    if (seek.id !== SEEK) continue
    let id = 0
    let position = -1
    for (const field of elementsIn(file, bytes, seekHead.dataStart, seek.dataStart, seek.end!)) {
      const value = bytes.subarray(field.dataStart - seekHead.dataStart, field.end! - seekHead.dataStart)
      const number = value.reduce((n, byte) => n * 256 + byte, 0)
      if (field.id === SEEK_ID) id = number
      else if (field.id === SEEK_POSITION) position = number
    }
    if ((id === TAGS || id === SEEK_HEAD) && position >= 0) targets.push(segmentData + position)
  }
  return targets
}

/** Info's texts that hold a position (ffmpeg writes a `title` there) become Void elements. */
async function blankPositionTitles(file: BoundedFile, info: Element, found: Findings): Promise<void> {
  if (info.end === null) throw new ScanStop('unreadable')
  const bytes = await file.bytes(info.dataStart, info.end)
  for (const field of elementsIn(file, bytes, info.dataStart, info.dataStart, info.end)) {
    if (!INFO_TEXTS.has(field.id)) continue
    const value = new TextDecoder().decode(bytes.subarray(field.dataStart - info.dataStart, field.end! - info.dataStart))
    if (ISO6709_VALUE.test(value)) found.add(field.start, voidElement(field.end! - field.start), `/Segment/Info/${INFO_TEXTS.get(field.id)}(position)`)
  }
}

async function blankLocationTags(file: BoundedFile, tags: Element, found: Findings): Promise<void> {
  if (tags.end === null) throw new ScanStop('unreadable')
  const bytes = await file.bytes(tags.dataStart, tags.end)
  const base = tags.dataStart
  const visit = (simpleTag: Element, path: string, depth: number) => {
    // SimpleTags nest; a file nesting them thousands deep would otherwise exhaust the stack.
    if (depth > MAX_DEPTH) throw new ScanStop('too-complex')
    const fields = elementsIn(file, bytes, base, simpleTag.dataStart, simpleTag.end!)
    const nameField = fields.find(field => field.id === TAG_NAME)
    const name = nameField ? new TextDecoder().decode(bytes.subarray(nameField.dataStart - base, nameField.end! - base)) : ''
    const valueField = fields.find(field => field.id === TAG_STRING)
    const value = valueField ? new TextDecoder().decode(bytes.subarray(valueField.dataStart - base, valueField.end! - base)) : ''
    if (namesALocation(name) || ISO6709_VALUE.test(value)) {
      found.add(simpleTag.start, voidElement(simpleTag.end! - simpleTag.start), `${path}/SimpleTag[${name}]`)
      return
    }
    for (const field of fields) if (field.id === SIMPLE_TAG) visit(field, `${path}/SimpleTag[${name}]`, depth + 1)
  }
  for (const tag of elementsIn(file, bytes, base, tags.dataStart, tags.end)) {
    if (tag.id !== TAG) continue
    for (const field of elementsIn(file, bytes, base, tag.dataStart, tag.end!)) {
      if (field.id === SIMPLE_TAG) visit(field, '/Segment/Tags/Tag', 1)
    }
  }
}

/**
 * A Void element of exactly `total` bytes: its size field is as long as it must be (1 to 8 bytes)
 * for ID + size field + zeros to add up, which is what lets any element be replaced in place.
 */
export function voidElement(total: number): Uint8Array {
  for (let length = 1; length <= 8; length++) {
    const size = total - 1 - length
    // All ones would mean "unknown size".
    if (size < 0 || size > 2 ** (7 * length) - 2) continue
    const out = new Uint8Array(total)
    out[0] = VOID
    let rest = size
    for (let i = length; i >= 1; i--) {
      out[i] = rest % 256
      rest = Math.floor(rest / 256)
    }
    out[1] = out[1]! | (0x80 >> (length - 1))
    return out
  }
  throw new Error(`no Void element is ${total} bytes long`)
}
