import type { UploadRow } from '../../../db/schema'
import type { Language, MediaKind } from '#shared/enums'
import { foldForSearch } from '#shared/search'

/**
 * Columns of manifest.csv, one row per approved upload. `metadata` says what the archived file
 * still carries: a photo's original as the guest sent it (its EXIF, GPS position included, is the
 * couple's), a video as stored, that is without the position its phone recorded (blanked at upload,
 * docs/api.md: a second, located copy of every video is not worth twice the storage).
 */
export const MANIFEST_COLUMNS = ['id', 'author', 'message', 'kind', 'createdAt', 'file', 'originalFileName', 'metadata', 'hearts', 'comments'] as const

type ManifestColumn = typeof MANIFEST_COLUMNS[number]

/**
 * What a person opening manifest.csv reads, in the event's language: the column headings and the
 * note on what the file still carries (the kind stays the API's `photo` / `video`). English keeps
 * the columns' own names.
 */
export const MANIFEST_WORDS: Record<Language, { headings: Record<ManifestColumn, string>, metadata: Record<MediaKind, string> }> = {
  'pt-BR': {
    headings: { id: 'id', author: 'autor', message: 'mensagem', kind: 'tipo', createdAt: 'enviado em', file: 'arquivo', originalFileName: 'nome original', metadata: 'metadados', hearts: 'corações', comments: 'comentários' },
    metadata: { photo: 'original, como foi enviado', video: 'localização da gravação removida', audio: 'etiquetas e localização da gravação removidas' },
  },
  'en': {
    headings: { id: 'id', author: 'author', message: 'message', kind: 'kind', createdAt: 'createdAt', file: 'file', originalFileName: 'originalFileName', metadata: 'metadata', hearts: 'hearts', comments: 'comments' },
    metadata: { photo: 'original, as sent', video: 'recorded position removed', audio: 'tags and recorded position removed' },
  },
  'es': {
    headings: { id: 'id', author: 'autor', message: 'mensaje', kind: 'tipo', createdAt: 'enviado el', file: 'archivo', originalFileName: 'nombre original', metadata: 'metadatos', hearts: 'corazones', comments: 'comentarios' },
    metadata: { photo: 'original, tal como se envió', video: 'ubicación de la grabación eliminada', audio: 'etiquetas y ubicación de la grabación eliminadas' },
  },
}

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

/**
 * One CSV cell (RFC 4180). A cell that a spreadsheet would run as a formula (starting with
 * = + - @, tab or carriage return) gets a leading apostrophe: guests type the author and message.
 */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

/**
 * `file` is the entry's name in the archive, or empty when the original could not be found;
 * `reactions` its guests' hearts and approved comments (comments.csv holds the comments' words).
 */
export function manifestLine(
  upload: Pick<UploadRow, 'id' | 'author' | 'message' | 'kind' | 'createdAt' | 'fileName'>,
  file: string,
  language: Language,
  reactions: { hearts: number, commentCount: number } = { hearts: 0, commentCount: 0 },
): string {
  const words = MANIFEST_WORDS[language]
  return csvLine([
    upload.id, upload.author, upload.message, upload.kind, upload.createdAt.toISOString(), file, upload.fileName, words.metadata[upload.kind],
    String(reactions.hearts), String(reactions.commentCount),
  ])
}

/** The first line; the byte order mark makes spreadsheet apps read the accents as UTF-8. */
export function manifestHeader(language: Language): string {
  const { headings } = MANIFEST_WORDS[language]
  return `\uFEFF${csvLine(MANIFEST_COLUMNS.map(column => headings[column]))}`
}
