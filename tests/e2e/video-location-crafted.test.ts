import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { ffprobeLocationTags, locationTags, makeCraftedLocationVideos, POSITION, type CraftedVideo } from '../support/location-videos'
import { keyOfUrl, stagedKeyOfUrl, uploadFile } from '../support/uploads'

// Positions hidden where a scan of the usual places misses them, each in a real ffmpeg
// video: sent to the API, confirmed, then the served bytes read by exiftool and ffprobe as a
// downloader would. Every case is blanked, or refused with its bytes and record gone.

let dir: string
let videos: Record<string, CraftedVideo>

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'video-location-crafted-'))
  videos = makeCraftedLocationVideos(dir)
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What ffprobe reads as a position; null when it cannot open the file at all (then it reads none). */
function ffprobeSees(file: string): string[] | null {
  try {
    return ffprobeLocationTags(file)
  }
  catch {
    return null
  }
}

/** exiftool's location tags, and ffprobe's: one of them at least reads a position in `file`. */
function readers(file: string) {
  return { exiftool: locationTags(file), ffprobe: ffprobeSees(file) }
}

describe.each(['local', 's3'] as const)('crafted places of a position at confirm (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })

  it('the crafted originals do carry a position one reader or the other finds (the cases are real)', () => {
    for (const [name, video] of Object.entries(videos)) {
      if (video.outcome === 'location-track' || name === 'mebx-live-photo.mp4') continue
      const seen = readers(video.file)
      expect(seen.exiftool.length + (seen.ffprobe?.length ?? 0), name).toBeGreaterThan(0)
    }
  })

  it('each blanked case is served with no position for exiftool or ffprobe, and no trace of it in the bytes', async () => {
    for (const [name, video] of Object.entries(videos)) {
      if (video.outcome !== 'blanked') continue
      const bytes = readFileSync(video.file)
      const { init, confirm } = await uploadFile(server.url, bytes, { fileName: 'v', contentType: video.contentType, size: bytes.length, durationSec: 2 })
      expect(confirm.status, `${name}: ${JSON.stringify(confirm.body)}`).toBe(200)
      const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === init.id)
      const served = join(dir, `served-${driver}-${name}`)
      writeFileSync(served, Buffer.from(await (await fetch(item.url)).arrayBuffer()))
      expect(statSync(served).size, name).toBe(bytes.length)
      expect(locationTags(served), name).toEqual([])
      const ffprobe = ffprobeSees(served)
      // ffprobe cannot open a file with a uuid box too short for its user type, before or after.
      if (ffprobeSees(video.file) === null) expect(ffprobe, name).toBeNull()
      else expect(ffprobe, name).toEqual([])
      const servedBytes = readFileSync(served)
      expect(servedBytes.indexOf(POSITION), name).toBe(-1)
      expect(servedBytes.indexOf('23.5505'), name).toBe(-1)
    }
  })

  it('a top-level udta past the end of the file, and camm, gpmd and located mebx tracks, are refused: 422, bytes and record gone', async () => {
    for (const [name, video] of Object.entries(videos)) {
      if (video.outcome === 'blanked') continue
      const bytes = readFileSync(video.file)
      const { init, confirm } = await uploadFile(server.url, bytes, { fileName: 'v', contentType: video.contentType, size: bytes.length, durationSec: 2 })
      expect(confirm.status, name).toBe(422)
      expect(confirm.body.data, name).toEqual({ code: 'CONTENT_MISMATCH', declaredSize: bytes.length, storedSize: bytes.length, detectedType: 'video/mp4', videoProblem: video.outcome })
      expect((await api(server.url, `/api/uploads/${init.id}/confirm`, { method: 'POST' })).status, name).toBe(404)
      expect(await server.probe.exists(stagedKeyOfUrl(init.upload.url)), name).toBe(false)
      expect(await server.probe.exists(keyOfUrl(init.upload.url)), name).toBe(false)
    }
  })
})
