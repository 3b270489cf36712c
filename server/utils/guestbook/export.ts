import { archiveEntryName, csvLine } from '../admin/export-manifest'
import { guestbookRows } from './list'

/** A book of this many messages at most: more than any wedding writes. */
const EXPORT_MAX_MESSAGES = 20_000

export const GUESTBOOK_CSV_COLUMNS = ['id', 'type', 'author', 'text', 'durationSec', 'createdAt', 'file'] as const

/**
 * guestbook.csv in the admin's export: every approved message, oldest first, with the manifest's
 * formula guard (guests typed the author and the text). `file` names a spoken message's recording
 * in the archive (the same name as in manifest.csv); empty for a written one.
 */
export async function guestbookCsv(): Promise<string> {
  const rows = (await guestbookRows({ status: 'approved' }, undefined, EXPORT_MAX_MESSAGES)).reverse()
  let csv = `\uFEFF${csvLine(GUESTBOOK_CSV_COLUMNS)}`
  for (const row of rows) {
    const file = row.type === 'audio' && row.storageKey ? archiveEntryName({ id: row.id, author: row.author, createdAt: row.createdAt, storageKey: row.storageKey }) : ''
    csv += csvLine([row.id, row.type, row.author, row.text ?? '', row.durationSec === null ? '' : String(row.durationSec), row.createdAt.toISOString(), file])
  }
  return csv
}
