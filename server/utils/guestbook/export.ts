import { Readable } from 'node:stream'
import type { Language } from '#shared/enums'
import { csvLine } from '../archive/csv'
import { archiveEntryName } from '../archive/entry-name'
import { guestbookPagesOldestFirst } from './list'

/** Messages read from the database at a time: the file is written a page at a time, however long the guestbook. */
const ROWS_PER_READ = 500

export const GUESTBOOK_CSV_COLUMNS = ['id', 'type', 'author', 'text', 'durationSec', 'createdAt', 'file'] as const

/** The headings a person opening guestbook.csv reads, in the event's language, as manifest.csv's; English keeps the columns' names. */
const GUESTBOOK_CSV_HEADINGS: Record<Language, Record<typeof GUESTBOOK_CSV_COLUMNS[number], string>> = {
  'pt-BR': { id: 'id', type: 'tipo', author: 'autor', text: 'recado', durationSec: 'duração (s)', createdAt: 'enviado em', file: 'arquivo' },
  'en': { id: 'id', type: 'type', author: 'author', text: 'text', durationSec: 'durationSec', createdAt: 'createdAt', file: 'file' },
  'es': { id: 'id', type: 'tipo', author: 'autor', text: 'mensaje', durationSec: 'duración (s)', createdAt: 'enviado el', file: 'archivo' },
}

/**
 * guestbook.csv in the admin's export: every approved message, oldest first, with the manifest's
 * formula guard (guests typed the author and the text). `file` names a spoken message's recording
 * in the archive (the same name as in manifest.csv); empty for a written one. A stream read as the
 * archive takes it: one page of messages in memory at a time.
 */
export function guestbookCsv(language: Language): Readable {
  return Readable.from(guestbookCsvChunks(language), { objectMode: false })
}

async function* guestbookCsvChunks(language: Language): AsyncGenerator<Buffer> {
  const headings = GUESTBOOK_CSV_HEADINGS[language]
  yield Buffer.from(`\uFEFF${csvLine(GUESTBOOK_CSV_COLUMNS.map(column => headings[column]))}`, 'utf8')
  for await (const rows of guestbookPagesOldestFirst({ status: 'approved' }, ROWS_PER_READ)) {
    let csv = ''
    for (const row of rows) {
      const file = row.type === 'audio' && row.storageKey ? archiveEntryName({ id: row.id, author: row.author, createdAt: row.createdAt, storageKey: row.storageKey }) : ''
      csv += csvLine([row.id, row.type, row.author, row.text ?? '', row.durationSec === null ? '' : String(row.durationSec), row.createdAt.toISOString(), file])
    }
    yield Buffer.from(csv, 'utf8')
  }
}
