import { spawnSync } from 'node:child_process'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  box, freeformItem, ISO6709, iTunesMeta, keyedItem, keysBox, mebxEntry, metadataTrak, overrunning, quickTimeMeta, sampleEntry,
  withFirstMoofChild, withMoovChildren, withSampleEntryChild, xyz,
} from './crafted-videos'

/**
 * Real videos carrying a recording position, made at test time by Debian's ffmpeg and exiftool
 * (installed by .ci/run), and the same tools reading back what a downloader would see.
 */

/** The position the issue was found with (São Paulo, 760 m), as ffmpeg takes it (ISO 6709). */
export const POSITION = '+23.5505-046.6333+760.000/'

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.error}`)
  return result.stdout
}

const ffmpeg = (...args: string[]) => run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args])
const exiftool = (...args: string[]) => run('exiftool', args)
const picture = (seconds: number, size = '320x240') => ['-f', 'lavfi', '-t', String(seconds), '-i', `testsrc=size=${size}:rate=25`]
const sound = ['-f', 'lavfi', '-i', 'sine=frequency=440', '-shortest']
const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']

export interface LocationVideo {
  file: string
  contentType: string
}

/** The small videos, one per way a position gets into a file; each is a few tens of KB. */
export function makeLocationVideos(dir: string): Record<string, LocationVideo> {
  const at = (name: string) => join(dir, name)
  // MP4 as ffmpeg writes it: the position as a 3GPP `loci` in moov/udta, moov after the media data.
  ffmpeg(...picture(2), ...sound, ...h264, '-c:a', 'aac', '-metadata', `location=${POSITION}`, at('moov-last.mp4'))
  // The same with moov before the media data, as phones and web-ready files have it.
  ffmpeg(...picture(2), ...h264, '-movflags', '+faststart', '-metadata', `location=${POSITION}`, at('moov-first.mp4'))
  // QuickTime as ffmpeg writes it: a `©xyz` in moov/udta.
  ffmpeg(...picture(2), ...h264, '-metadata', `location=${POSITION}`, at('xyz.mov'))
  // QuickTime as an iPhone writes it: Apple's keys in a `meta`, one of them the location.
  ffmpeg(...picture(2), ...h264, '-movflags', 'use_metadata_tags', '-metadata', 'com.apple.quicktime.make=Apple',
    '-metadata', `com.apple.quicktime.location.ISO6709=${POSITION}`, '-metadata', 'com.apple.quicktime.model=iPhone 15', at('apple.mov'))
  // Every place exiftool can write a position into an MP4 at once: udta ©xyz, an ilst ©xyz item,
  // a moov-level Keys meta, and XMP in a top-level uuid box, next to ffmpeg's loci.
  copyFileSync(at('moov-first.mp4'), at('every-place.mp4'))
  exiftool('-q', '-n', '-overwrite_original', '-UserData:GPSCoordinates=23.5505 -46.6333 760', '-ItemList:GPSCoordinates=23.5505 -46.6333 760',
    '-Keys:GPSCoordinates=23.5505 -46.6333 760', '-XMP:GPSLatitude=23.5505', '-XMP:GPSLongitude=-46.6333', '-XMP:GPSAltitude=760', at('every-place.mp4'))
  // XMP in QuickTime goes in moov/udta/XMP_.
  ffmpeg(...picture(2), ...h264, at('xmp.mov'))
  exiftool('-q', '-n', '-overwrite_original', '-XMP:GPSLatitude=23.5505', '-XMP:GPSLongitude=-46.6333', at('xmp.mov'))
  // WebM has no location element, but ffmpeg keeps a `location` it is given (or copies from a phone's MP4) as a tag.
  ffmpeg(...picture(2), '-c:v', 'libvpx', '-b:v', '200k', '-metadata', `LOCATION=${POSITION}`, at('tagged.webm'))
  // A moov of 1.5 MB, larger than one 1 MiB read: a long comment before the position.
  writeFileSync(at('comment.txt'), `;FFMETADATA1\ncomment=${'x'.repeat(1_500_000)}\nlocation=${POSITION}\n`)
  ffmpeg(...picture(2, '160x120'), '-i', at('comment.txt'), '-map_metadata', '1', '-map', '0', ...h264, at('large-moov.mp4'))
  return {
    'moov-last.mp4': { file: at('moov-last.mp4'), contentType: 'video/mp4' },
    'moov-first.mp4': { file: at('moov-first.mp4'), contentType: 'video/mp4' },
    'xyz.mov': { file: at('xyz.mov'), contentType: 'video/quicktime' },
    'apple.mov': { file: at('apple.mov'), contentType: 'video/quicktime' },
    'every-place.mp4': { file: at('every-place.mp4'), contentType: 'video/mp4' },
    'xmp.mov': { file: at('xmp.mov'), contentType: 'video/quicktime' },
    'tagged.webm': { file: at('tagged.webm'), contentType: 'video/webm' },
    'large-moov.mp4': { file: at('large-moov.mp4'), contentType: 'video/mp4' },
  }
}

/**
 * An H.264 MP4 of about `mebibytes` MiB (ffmpeg stops at that size) with its moov and the position
 * at the end: lossless frames of noise (about 12 MiB a second), which do not compress, so the size
 * is reached in seconds of encoding.
 */
export function makeLargeVideo(file: string, mebibytes: number): LocationVideo {
  const seconds = Math.ceil(mebibytes / 10) + 1
  ffmpeg('-f', 'lavfi', '-t', String(seconds), '-i', 'testsrc2=size=640x360:rate=30', '-vf', 'noise=alls=100:allf=t+u',
    ...h264, '-qp', '0', '-fs', String(Math.round(mebibytes * 1024 * 1024)), '-metadata', `location=${POSITION}`, file)
  return { file, contentType: 'video/mp4' }
}

/**
 * What exiftool reads in the file that speaks of a position, every group, duplicates and unknown
 * tags included (not the [File] group: the file's own name and folder are not in it).
 */
export function locationTags(file: string): string[] {
  return exiftool('-n', '-G', '-a', '-u', file).split('\n').filter(line => !line.startsWith('[File]') && /gps|locat|coordinat|iso6709|xyz/i.test(line))
}

/** The streams and duration ffprobe reads. */
export function probe(file: string): unknown {
  const json = JSON.parse(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration,nb_streams:stream=index,codec_name,codec_type,width,height,nb_frames,duration,sample_rate', '-of', 'json', file]))
  return { streams: json.streams, format: json.format }
}

/** A hash of every packet of every stream, as the demuxer hands them to a decoder. */
export function packetHashes(file: string): string {
  return run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0', '-c', 'copy', '-f', 'framemd5', '-'])
}

/**
 * What ffprobe reads as a position: container and stream tags whose name speaks of a location,
 * or whose value is an ISO 6709 position whatever its name.
 */
export function ffprobeLocationTags(file: string): string[] {
  const json = JSON.parse(run('ffprobe', ['-v', 'error', '-show_entries', 'format_tags:stream_tags', '-of', 'json', file]))
  const tags = [json.format?.tags ?? {}, ...(json.streams ?? []).map((stream: { tags?: object }) => stream.tags ?? {})] as Record<string, string>[]
  return tags.flatMap(entries => Object.entries(entries))
    .filter(([name, value]) => /gps|locat|coordinat|iso6709|xyz/i.test(name) || /[+-]\d{2,}(\.\d+)?[+-]\d{3,}/.test(String(value)))
    .map(([name, value]) => `${name}=${value}`)
}

export interface CraftedVideo extends LocationVideo {
  /** `blanked`: confirmed, served without any position; otherwise refused with this `videoProblem`. */
  outcome: 'blanked' | 'unreadable' | 'location-track'
}

/**
 * Positions hidden where a scan that walks only the usual places misses them, each in a real
 * ffmpeg video (its moov last, so boxes added to it move no media), built with the box writer of
 * crafted-videos.ts: what exiftool and ffprobe still read in them is checked by the tests.
 */
export function makeCraftedLocationVideos(dir: string): Record<string, CraftedVideo> {
  const at = (name: string) => join(dir, name)
  ffmpeg(...picture(2), ...h264, at('crafted-base.mp4'))
  ffmpeg(...picture(2), ...h264, '-movflags', 'frag_keyframe+empty_moov', '-g', '10', at('crafted-fragmented.mp4'))
  ffmpeg(...picture(2), '-c:v', 'libvpx', '-b:v', '200k', '-metadata', `TITLE=${POSITION}`, at('title.webm'))
  const base = readFileSync(at('crafted-base.mp4'))
  const location = 'com.apple.quicktime.location.ISO6709'
  const files: Record<string, [Buffer, CraftedVideo['outcome']]> = {
    'freeform.mp4': [withMoovChildren(base, box('udta', iTunesMeta(freeformItem('com.apple.iTunes', location, ISO6709)))), 'blanked'],
    'two-keys.mp4': [withMoovChildren(base, quickTimeMeta(keysBox('com.apple.quicktime.make'), keysBox(location), box('ilst', keyedItem(1, ISO6709)))), 'blanked'],
    'two-keys-reversed.mp4': [withMoovChildren(base, quickTimeMeta(keysBox(location), keysBox('com.apple.quicktime.make'), box('ilst', keyedItem(1, ISO6709)))), 'blanked'],
    'two-metas.mp4': [withMoovChildren(base, quickTimeMeta(keysBox(location)), quickTimeMeta(keysBox('com.apple.quicktime.make'), box('ilst', keyedItem(1, ISO6709)))), 'blanked'],
    'position-under-make.mp4': [withMoovChildren(base, quickTimeMeta(keysBox('com.apple.quicktime.make'), box('ilst', keyedItem(1, ISO6709)))), 'blanked'],
    'uuid8-then-udta.mp4': [Buffer.concat([base, box('uuid'), box('udta', xyz())]), 'blanked'],
    'uuid8-in-udta.mp4': [withMoovChildren(base, box('udta', box('uuid'), xyz())), 'blanked'],
    'udta-in-mdia.mp4': [withMoovChildren(base, box('mdia', box('udta', xyz()))), 'blanked'],
    'udta-in-moof.mp4': [withFirstMoofChild(readFileSync(at('crafted-fragmented.mp4')), box('udta', xyz())), 'blanked'],
    'udta-in-sample-entry.mp4': [withSampleEntryChild(base, box('udta', xyz())), 'blanked'],
    'udta-past-the-end.mp4': [Buffer.concat([base, overrunning(box('udta', xyz()), 100)]), 'unreadable'],
    'camm.mp4': [withMoovChildren(base, metadataTrak(sampleEntry('camm'))), 'location-track'],
    'gpmd.mp4': [withMoovChildren(base, metadataTrak(sampleEntry('gpmd'))), 'location-track'],
    'mebx-location.mp4': [withMoovChildren(base, metadataTrak(mebxEntry('com.apple.quicktime.location.ISO6709'))), 'location-track'],
    'mebx-live-photo.mp4': [withMoovChildren(base, metadataTrak(mebxEntry('com.apple.quicktime.live-photo-info'))), 'blanked'],
  }
  const out: Record<string, CraftedVideo> = {}
  for (const [name, [bytes, outcome]] of Object.entries(files)) {
    writeFileSync(at(name), bytes)
    out[name] = { file: at(name), contentType: 'video/mp4', outcome }
  }
  out['title.webm'] = { file: at('title.webm'), contentType: 'video/webm', outcome: 'blanked' }
  return out
}
