import type { UploadRow } from '../../../db/schema'
import { foldForSearch } from '#shared/search'

// One name per recording or file in the export archive, the same in every sheet that points at it
// (manifest.csv, guestbook.csv).
const KEY_EXTENSION = /\.([a-z0-9]{2,5})$/

/** Author names as a file-name fragment: ASCII letters, digits and single dashes, at most 40. */
function nameFragment(text: string): string {
  return foldForSearch(text).replace(/[^a-z0-9]+/g, '-').slice(0, 40).replace(/^-+|-+$/g, '')
}

/**
 * The name of an upload's original inside the archive, e.g. `2026-11-22_1804_maria_<id>.jpg`
 * (UTC time). Never from the guest's file name: only ASCII letters, digits, `_`, `-` and the
 * extension's dot, so no path separator, `..` or control character can reach an unzip tool; the
 * id makes it unique.
 */
export function archiveEntryName(upload: Pick<UploadRow, 'id' | 'author' | 'createdAt' | 'storageKey'>): string {
  const iso = upload.createdAt.toISOString()
  const stamp = `${iso.slice(0, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}`
  const author = nameFragment(upload.author) || 'convidado'
  const id = upload.id.replace(/[^\w-]/g, '')
  const extension = KEY_EXTENSION.exec(upload.storageKey)?.[1] ?? 'bin'
  return `${stamp}_${author}_${id}.${extension}`
}
