import { availableParallelism } from 'node:os'
import type { VideoContainer } from '#shared/media/video-location'

/*
 * How a display copy is encoded (display-copy.ts makes it; bench/display-copy.ts times the very
 * same command). Pure: no server state, so a bench or a test runs it as the server does.
 */

/** The long side of a display copy: Immich's choice too, plenty for a phone or a projector. */
export const DISPLAY_COPY_LONG_SIDE = 1280

/**
 * Threads one encode may use: half the cores, so that on a 2-core server one is always left to
 * answer guests while a copy is made.
 */
export const ENCODE_THREADS = Math.max(1, Math.floor(availableParallelism() / 2))

/** Transfers that make HDR pictures (PQ, HLG): tone-mapped, or the copy looks washed out on SDR screens. */
export const HDR_TRANSFERS = new Set(['smpte2084', 'arib-std-b67'])

const fit = `scale=w='min(${DISPLAY_COPY_LONG_SIDE},iw)':h='min(${DISPLAY_COPY_LONG_SIDE},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`
const toneMap = 'zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv'

/** ffmpeg's demuxer for a container we detected: a guest's file never chooses how it is read. */
const DEMUXERS: Record<VideoContainer, string> = { mp4: 'mov', matroska: 'matroska' }

/**
 * How ffmpeg and ffprobe open a guest's file: by the demuxer of the container the server found
 * (never guessed from the bytes, which would let a crafted file pick a demuxer such as an HLS
 * playlist), and from the local file only, so that nothing inside it can make them fetch a URL.
 */
export function inputArguments(input: string, container: VideoContainer): string[] {
  return ['-protocol_whitelist', 'file', '-f', DEMUXERS[container], '-i', input]
}

/**
 * The ffmpeg arguments of a copy: the first picture and sound only, rotated as the phone meant it
 * (ffmpeg applies the rotation, so the copy needs none), at most DISPLAY_COPY_LONG_SIDE, H.264
 * High 4:2:0 and AAC, `faststart` so a browser plays it before it has it all, and no metadata
 * (`-map_metadata -1`: no position, no tag of the original reaches the copy).
 */
export function copyArguments(input: string, output: string, source: { hdr: boolean, container: VideoContainer }): string[] {
  const { hdr } = source
  return [
    '-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-threads', String(ENCODE_THREADS), ...inputArguments(input, source.container),
    '-map', '0:v:0', '-map', '0:a:0?', '-map_metadata', '-1', '-map_chapters', '-1',
    '-filter_threads', '1', '-vf', hdr ? `${toneMap},${fit},format=yuv420p` : `${fit},format=yuv420p`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-threads', String(ENCODE_THREADS),
    '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
    '-movflags', '+faststart', '-f', 'mp4', output,
  ]
}
