import { describe, expect, it } from 'vitest'
import { blobReader } from '../../shared/media/mp4-duration'
import { applyPatches, scanVideoLocation } from '../../shared/media/video-location'
import {
  box, ebmlHeader, element, freeformItem, ftyp, fullBox, ISO6709, iTunesMeta, keyedItem, keysBox, mdat, mebxEntry, metadataTrak, mvhd,
  overrunning, quickTimeMeta, sampleEntry, simpleTag, tags, text, u32, xyz,
} from '../support/crafted-videos'

// Where a crafted MP4 or WebM hides a position from a scan that looks only in the usual places,
// hand-built: each is blanked, or the file refused. tests/e2e/video-location-crafted
// builds the same shapes in real ffmpeg videos and reads the result with exiftool and ffprobe.

const LOCATION = 'com.apple.quicktime.location.ISO6709'
const movie = (...children: Buffer[]) => Buffer.concat([ftyp, mdat(), box('moov', mvhd(), ...children)])

async function scan(bytes: Buffer) {
  return scanVideoLocation(blobReader(new Blob([new Uint8Array(bytes)])), bytes.length)
}

/** The scan's patches written over the file: no trace of the position may be left. */
async function expectBlanked(bytes: Buffer, removed: string[]) {
  const result = await scan(bytes)
  expect(result).toMatchObject({ ok: true, removed })
  if (!result.ok) return
  const clean = Buffer.from(bytes)
  applyPatches(clean, 0, result.patches)
  expect(clean.length).toBe(bytes.length)
  expect(clean.indexOf(ISO6709)).toBe(-1)
  expect(clean.indexOf('23.5505')).toBe(-1)
  expect(await scan(clean)).toMatchObject({ ok: true, patches: [] })
}

describe('positions hidden in crafted MP4s are blanked', () => {
  it('a freeform iTunes ---- item (mean, name, data) named com.apple.quicktime.location.ISO6709', async () => {
    await expectBlanked(movie(box('udta', iTunesMeta(freeformItem('com.apple.iTunes', LOCATION, ISO6709)))), [`/moov/udta/meta/ilst/----[${LOCATION}]`])
  })

  it('a second keys table naming the location (exiftool reads the last table, ffprobe the first): both orders', async () => {
    const value = box('ilst', keyedItem(1, ISO6709))
    await expectBlanked(movie(quickTimeMeta(keysBox('com.apple.quicktime.make'), keysBox(LOCATION), value)), [`/moov/meta/keys[${LOCATION}]`, '/moov/meta/ilst/#1'])
    await expectBlanked(movie(quickTimeMeta(keysBox(LOCATION), keysBox('com.apple.quicktime.make'), value)), [`/moov/meta/keys[${LOCATION}]`, '/moov/meta/ilst/#1'])
  })

  it('the location key in one meta, its value in another (ffprobe keeps the first keys table for every meta)', async () => {
    await expectBlanked(movie(quickTimeMeta(keysBox(LOCATION)), quickTimeMeta(keysBox('com.apple.quicktime.make'), box('ilst', keyedItem(1, ISO6709)))), [`/moov/meta/keys[${LOCATION}]`, '/moov/meta/ilst/#1'])
  })

  it('a position stored under another name: an ilst value, a QuickTime text, a WebM title', async () => {
    await expectBlanked(movie(quickTimeMeta(keysBox('com.apple.quicktime.make'), box('ilst', keyedItem(1, ISO6709)))), ['/moov/meta/ilst/#1(position)'])
    await expectBlanked(movie(box('udta', box('\u00A9cmt', Buffer.from([0, ISO6709.length, 0x15, 0xC7]), text(ISO6709)))), ['/moov/udta/\u00A9cmt(position)'])
    const info = element(0x1549A966, element(0x2AD7B1, Buffer.from([0x0F, 0x42, 0x40])), element(0x7BA9, text(ISO6709)))
    await expectBlanked(Buffer.concat([ebmlHeader, element(0x18538067, info, tags(simpleTag('TITLE', ISO6709)))]), ['/Segment/Info/Title(position)', '/Segment/Tags/Tag/SimpleTag[TITLE]'])
  })

  it('udta/©xyz after a uuid box of size 8 (too short for its user type), at the top level and inside moov', async () => {
    await expectBlanked(Buffer.concat([movie(), box('uuid'), box('udta', xyz())]), ['/udta/\u00A9xyz'])
    await expectBlanked(movie(box('udta', box('uuid'), xyz())), ['/moov/udta/\u00A9xyz'])
  })

  it('user data inside mdia, minf, stbl or a fragment\'s moof and traf, which ffprobe reads too', async () => {
    await expectBlanked(movie(box('trak', box('mdia', box('minf', box('stbl', box('udta', xyz())))))), ['/moov/trak/mdia/minf/stbl/udta/\u00A9xyz'])
    const fragment = box('moof', box('mfhd', Buffer.alloc(8)), box('traf', box('tfhd', Buffer.alloc(8)), box('udta', xyz())))
    await expectBlanked(Buffer.concat([ftyp, box('moov', mvhd()), fragment, mdat()]), ['/moof/traf/udta/\u00A9xyz'])
  })

  it('user data inside a sample entry (after a video entry\'s 78 bytes of fields), which ffprobe reads as the stream\'s tags', async () => {
    const avc1 = sampleEntry('avc1', Buffer.alloc(70), box('avcC', Buffer.alloc(20)), box('udta', xyz()))
    const stbl = box('stbl', fullBox('stsd', u32(1), avc1))
    await expectBlanked(movie(box('trak', box('mdia', box('minf', stbl)))), ['/moov/trak/mdia/minf/stbl/stsd/avc1/udta/\u00A9xyz'])
  })

  it('refuses (unreadable) a top-level udta running past the end of the file, which ffprobe reads as far as it goes', async () => {
    expect(await scan(Buffer.concat([movie(), overrunning(box('udta', xyz()), 100)]))).toEqual({ ok: false, reason: 'unreadable' })
    // A cut-off media box at the end is a truncated file, as before.
    expect(await scan(Buffer.concat([movie(), overrunning(mdat(), 100)]))).toMatchObject({ ok: true })
  })
})

describe('timed metadata tracks that carry positions are refused (location-track)', () => {
  it.each([
    ['Google camm', sampleEntry('camm')],
    ['GoPro gpmd', sampleEntry('gpmd')],
    ['Apple mebx with a location key', mebxEntry('com.apple.quicktime.video-orientation', LOCATION)],
  ])('%s', async (_, entry) => {
    expect(await scan(movie(metadataTrak(entry)))).toEqual({ ok: false, reason: 'location-track' })
  })

  it('keeps an Apple mebx track of other keys (Live Photo, orientation), as iPhones write them', async () => {
    expect(await scan(movie(metadataTrak(mebxEntry('com.apple.quicktime.live-photo-info', 'com.apple.quicktime.video-orientation'))))).toEqual({ ok: true, container: 'mp4', patches: [], removed: [] })
  })
})
