import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { and, asc, eq } from 'drizzle-orm'
import type { H3Event } from 'h3'
import { ZipFile } from 'yazl'
import { DISPLAYABLE, uploads, type UploadRow } from '../../../db/schema'

/** HEADs in flight at once while the archive's sizes are gathered. */
const HEAD_BATCH = 16

interface ZipEntry { row: UploadRow, key: string, size: number }

/** Every approved, displayable item's public file and its stored size, oldest first; gone ones left out. */
async function publicEntries(): Promise<ZipEntry[]> {
  const rows = await useDb().select().from(uploads)
    .where(and(eq(uploads.status, 'approved'), DISPLAYABLE))
    .orderBy(asc(uploads.createdAt), asc(uploads.id))
  const store = useMediaStore()
  const entries: ZipEntry[] = []
  for (let start = 0; start < rows.length; start += HEAD_BATCH) {
    const batch = rows.slice(start, start + HEAD_BATCH)
    const heads = await Promise.all(batch.map(row => store.head(publicFileKey(row)!)))
    batch.forEach((row, index) => {
      const head = heads[index]
      if (head) entries.push({ row, key: publicFileKey(row)!, size: head.size })
    })
  }
  return entries
}

/**
 * Ends the archive and answers its final length, or -1 when yazl cannot know it (an entry
 * without a size). @types/yazl leaves out the callback's argument, which yazl 3 passes.
 */
function archiveLength(zip: ZipFile): Promise<number> {
  const end = zip.end as unknown as (options: Record<string, never>, calculated: (size: number) => void) => void
  return new Promise(resolve => end.call(zip, {}, resolve))
}

function archiveName(coupleNames: string): string {
  const couple = downloadFileName(coupleNames, { id: 'x', author: '' }, 'x.zip').split('_')[0]
  return `${couple}_fotos.zip`
}

/**
 * Streams a ZIP of every approved item's public file (photos' display images, which carry no
 * metadata; videos as stored), one file open at a time, with backpressure from the response.
 * Files are STOREd with their sizes known beforehand, so the archive's length is known before the
 * first byte and sent as Content-Length: a phone's browser can show real progress.
 */
export async function sendGalleryZip(event: H3Event, coupleNames: string): Promise<void> {
  const store = useMediaStore()
  const entries = await publicEntries()
  const res = event.node.res
  const zip = new ZipFile()
  const failed = new Promise<never>((_, reject) => zip.once('error', reject))
  failed.catch(() => {})
  let reading: Readable | undefined
  res.once('close', () => {
    if (!res.writableFinished) reading?.destroy()
  })
  for (const { row, key, size } of entries) {
    zip.addReadStreamLazy(downloadFileName(coupleNames, row, key), { compress: false, size, mtime: row.createdAt }, (done) => {
      store.read(key).then(
        (stream) => {
          reading = stream
          done(null, stream)
        },
        (error: unknown) => done(error, undefined as unknown as Readable),
      )
    })
  }
  const length = await archiveLength(zip)
  setResponseHeaders(event, {
    'content-type': 'application/zip',
    'content-disposition': attachmentDisposition(archiveName(coupleNames)),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
    ...(length >= 0 ? { 'content-length': length } : {}),
  })
  zip.outputStream.pipe(res)
  try {
    await Promise.race([finished(res), failed])
  }
  catch (error) {
    reading?.destroy()
    zip.outputStream.unpipe(res)
    // Mid-stream: break the connection so the download fails visibly instead of ending short.
    console.error('[gallery zip] failed mid-stream:', error instanceof Error ? error.message : error)
    res.destroy(error instanceof Error ? error : undefined)
  }
}
