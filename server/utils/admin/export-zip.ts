import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { and, asc } from 'drizzle-orm'
import type { H3Event } from 'h3'
import { ZipFile } from 'yazl'
import { moments, uploads, type UploadRow, PUBLIC_UPLOAD } from '../../../db/schema'
import { archiveEntryName } from '../archive/entry-name'
import { archiveFolderNames } from '../archive/folder-name'
import { manifestHeader, manifestLine } from './export-manifest'
import type { MediaStore } from '../storage/media-store'
import { keysetCompare } from '../paging/keyset'
import { NO_REACTIONS, reactionCounts, type ReactionCounts } from '../reactions/counts'
import { commentsCsv } from '../reactions/export'

const PAGE_SIZE = 200

/** Public uploads with their hearts and comments, oldest first, read a page at a time (keyset, like the gallery). */
async function* approvedUploads(): AsyncGenerator<{ row: UploadRow, reactions: ReactionCounts }> {
  let after: UploadRow | undefined
  for (;;) {
    const rows = await useDb().select().from(uploads)
      .where(and(PUBLIC_UPLOAD, after ? keysetCompare('>', after.createdAt.getTime(), after.id) : undefined))
      .orderBy(asc(uploads.createdAt), asc(uploads.id))
      .limit(PAGE_SIZE)
    const counts = await reactionCounts(rows.map(row => row.id))
    for (const row of rows) yield { row, reactions: counts.get(row.id) ?? NO_REACTIONS }
    if (rows.length < PAGE_SIZE) return
    after = rows[rows.length - 1]
  }
}

/** The original's bytes, or null when the object is gone (deleted while the export ran). */
async function openOriginal(store: MediaStore, row: UploadRow): Promise<Readable | null> {
  try {
    return await store.read(row.storageKey)
  }
  catch (error) {
    if (await store.head(row.storageKey) === null) return null
    throw error
  }
}

/** Every moment's name and its folder in the archive, by id. */
async function momentFolders(): Promise<Map<string, { name: string, folder: string }>> {
  const rows = await useDb().select({ id: moments.id, name: moments.name }).from(moments).orderBy(asc(moments.position), asc(moments.id))
  const folders = archiveFolderNames(rows)
  return new Map(rows.map(row => [row.id, { name: row.name, folder: folders.get(row.id)! }]))
}

function archiveName(now = new Date()): string {
  return `fotos-${now.toISOString().slice(0, 10)}.zip`
}

/**
 * Streams a ZIP of every approved original (each moment's in its folder) plus manifest.csv. One original is open at a time and
 * flows from storage to the response with backpressure (no buffering of files in memory or on
 * disk); media is STOREd, since photos and videos are compressed already. comments.csv and guestbook.csv follow,
 * written as the archive takes it. Only the manifest's text is kept until the end, where it is
 * added last so that it lists exactly what the archive holds.
 */
export async function sendExportZip(event: H3Event): Promise<void> {
  const store = useMediaStore()
  await store.ping() // storage down: an ordinary 503 before any byte is sent
  const res = event.node.res
  const zip = new ZipFile()
  const zipFailed = new Promise<never>((_, reject) => zip.once('error', reject))
  zipFailed.catch(() => {})
  let reading: Readable | undefined
  let clientGone = false
  res.once('close', () => {
    if (res.writableFinished) return
    clientGone = true
    reading?.destroy()
  })

  setResponseHeaders(event, {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${archiveName()}"`,
    'x-content-type-options': 'nosniff',
  })
  zip.outputStream.pipe(res)
  try {
    // The couple reads the manifest in the event's language.
    const { language } = await getEventSettings()
    const moments = await momentFolders()
    let manifest = manifestHeader(language)
    for await (const { row, reactions } of approvedUploads()) {
      if (clientGone) return
      const moment = row.momentId ? moments.get(row.momentId) : undefined
      const source = await openOriginal(store, row)
      if (!source) {
        manifest += manifestLine(row, '', language, reactions, moment?.name)
        continue
      }
      // Each moment's photos and videos in a folder of its own; the rest, and the spoken
      // messages (which guestbook.csv names at the root), at the root.
      const folder = moment && row.kind !== 'audio' ? `${moment.folder}/` : ''
      const name = `${folder}${archiveEntryName(row)}`
      manifest += manifestLine(row, name, language, reactions, moment?.name)
      reading = source
      zip.addReadStream(source, name, { compress: false, size: row.size, mtime: row.createdAt })
      await Promise.race([finished(source), zipFailed])
    }
    // Guests' approved comments under the photos above.
    if (clientGone) return
    const remarks = commentsCsv(language)
    reading = remarks
    zip.addReadStream(remarks, 'comments.csv', { mtime: new Date() })
    await Promise.race([finished(remarks), zipFailed])
    // The guestbook's approved messages; the spoken ones' recordings are among the originals above.
    if (clientGone) return
    const messages = guestbookCsv(language)
    reading = messages
    zip.addReadStream(messages, 'guestbook.csv', { mtime: new Date() })
    await Promise.race([finished(messages), zipFailed])
    zip.addBuffer(Buffer.from(manifest, 'utf8'), 'manifest.csv', { mtime: new Date() })
    zip.end()
    await Promise.race([finished(res), zipFailed])
  }
  catch (error) {
    reading?.destroy()
    zip.outputStream.unpipe(res)
    if (clientGone) return
    if (!res.headersSent) {
      // Nothing sent yet (the first read failed): answer with the ordinary error instead.
      res.removeHeader('content-disposition')
      res.removeHeader('content-type')
      throw error
    }
    // Mid-stream: break the connection so the download fails visibly instead of ending as a
    // shorter archive that looks complete.
    console.error('[export] failed mid-stream:', error instanceof Error ? error.message : error)
    res.destroy(error instanceof Error ? error : undefined)
  }
}
