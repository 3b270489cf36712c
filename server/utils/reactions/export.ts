import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import type { Language } from '#shared/enums'
import { csvLine } from '../archive/csv'

/** Comments read from the database at a time: the file is written a page at a time, however many. */
const ROWS_PER_READ = 500

export const COMMENTS_CSV_COLUMNS = ['uploadId', 'author', 'text', 'createdAt'] as const

/** The headings a person opening comments.csv reads, in the event's language, as manifest.csv's; English keeps the columns' names. */
const COMMENTS_CSV_HEADINGS: Record<Language, Record<typeof COMMENTS_CSV_COLUMNS[number], string>> = {
  'pt-BR': { uploadId: 'id da foto', author: 'autor', text: 'comentário', createdAt: 'enviado em' },
  'en': { uploadId: 'uploadId', author: 'author', text: 'text', createdAt: 'createdAt' },
  'es': { uploadId: 'id de la foto', author: 'autor', text: 'comentario', createdAt: 'enviado el' },
}

interface RawComment { id: string, upload_id: string, author: string, text: string, created_at: number }

/**
 * comments.csv in the admin's export: every approved comment under a photo or video the archive
 * holds (an approved upload: its id is in manifest.csv), oldest first, with the manifest's formula
 * guard. A stream read as the archive takes it: one page of comments in memory at a time.
 */
export function commentsCsv(language: Language): Readable {
  return Readable.from(commentsCsvChunks(language), { objectMode: false })
}

async function* commentsCsvChunks(language: Language): AsyncGenerator<Buffer> {
  const headings = COMMENTS_CSV_HEADINGS[language]
  yield Buffer.from(`\uFEFF${csvLine(COMMENTS_CSV_COLUMNS.map(column => headings[column]))}`, 'utf8')
  let after: RawComment | undefined
  for (;;) {
    const past = after ? sql` AND (c.created_at, c.id) > (${after.created_at}, ${after.id})` : sql``
    const rows = await useDb().all<RawComment>(sql`SELECT c.id, c.upload_id, c.author, c.text, c.created_at FROM comments c
      JOIN uploads u ON u.id = c.upload_id
      WHERE c.status = 'approved' AND u.status = 'approved' AND u.confirmed_at IS NOT NULL${past}
      ORDER BY c.created_at, c.id LIMIT ${ROWS_PER_READ}`)
    if (rows.length > 0) {
      yield Buffer.from(rows.map(row => csvLine([row.upload_id, row.author, row.text, new Date(Number(row.created_at)).toISOString()])).join(''), 'utf8')
    }
    if (rows.length < ROWS_PER_READ) return
    after = rows[rows.length - 1]
  }
}
