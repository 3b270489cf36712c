import type { UploadRow } from '../../../db/schema'
import type { Language, MediaKind } from '#shared/enums'
import { csvLine } from '../archive/csv'

/**
 * Columns of manifest.csv, one row per approved upload. `metadata` says what the archived file
 * still carries: a photo's original as the guest sent it (its EXIF, GPS position included, is the
 * couple's), a video as stored, that is without the position its phone recorded (blanked at upload,
 * docs/api.md: a second, located copy of every video is not worth twice the storage). `display`
 * names what guests were shown instead of a video's original, when it was not the original: its
 * H.264 display copy, or only its poster (docs/api.md, "Display copies"); the archive holds the original.
 */
export const MANIFEST_COLUMNS = ['id', 'author', 'message', 'kind', 'createdAt', 'file', 'originalFileName', 'metadata', 'hearts', 'comments', 'moment', 'display'] as const

/** What guests were shown instead of the original; nothing for an original shown as it is. */
type ShownInstead = 'copy' | 'poster-only'

type ManifestColumn = typeof MANIFEST_COLUMNS[number]

/**
 * What a person opening manifest.csv reads, in the event's language: the column headings and the
 * note on what the file still carries (the kind stays the API's `photo` / `video`). English keeps
 * the columns' own names.
 */
export const MANIFEST_WORDS: Record<Language, { headings: Record<ManifestColumn, string>, metadata: Record<MediaKind, string>, display: Record<ShownInstead, string> }> = {
  'pt-BR': {
    headings: { id: 'id', author: 'autor', message: 'mensagem', kind: 'tipo', createdAt: 'enviado em', file: 'arquivo', originalFileName: 'nome original', metadata: 'metadados', hearts: 'corações', comments: 'comentários', moment: 'momento', display: 'exibição' },
    metadata: { photo: 'original, como foi enviado', video: 'localização da gravação removida', audio: 'etiquetas e localização da gravação removidas' },
    display: { 'copy': 'convidados viram uma cópia H.264 (o original está aqui)', 'poster-only': 'convidados viram só o pôster (o original está aqui)' },
  },
  'en': {
    headings: { id: 'id', author: 'author', message: 'message', kind: 'kind', createdAt: 'createdAt', file: 'file', originalFileName: 'originalFileName', metadata: 'metadata', hearts: 'hearts', comments: 'comments', moment: 'moment', display: 'display' },
    metadata: { photo: 'original, as sent', video: 'recorded position removed', audio: 'tags and recorded position removed' },
    display: { 'copy': 'guests saw an H.264 copy (the original is here)', 'poster-only': 'guests saw only the poster (the original is here)' },
  },
  'es': {
    headings: { id: 'id', author: 'autor', message: 'mensaje', kind: 'tipo', createdAt: 'enviado el', file: 'archivo', originalFileName: 'nombre original', metadata: 'metadatos', hearts: 'corazones', comments: 'comentarios', moment: 'momento', display: 'visualización' },
    metadata: { photo: 'original, tal como se envió', video: 'ubicación de la grabación eliminada', audio: 'etiquetas y ubicación de la grabación eliminadas' },
    display: { 'copy': 'los invitados vieron una copia H.264 (el original está aquí)', 'poster-only': 'los invitados vieron solo el póster (el original está aquí)' },
  },
}

/**
 * `file` is the entry's name in the archive, or empty when the original could not be found;
 * `reactions` its guests' hearts and approved comments (comments.csv holds the comments' words);
 * `moment` the name of the moment it belongs to, as the couple typed it, or empty.
 */
export function manifestLine(
  upload: Pick<UploadRow, 'id' | 'author' | 'message' | 'kind' | 'createdAt' | 'fileName'> & Partial<Pick<UploadRow, 'display'>>,
  file: string,
  language: Language,
  reactions: { hearts: number, commentCount: number } = { hearts: 0, commentCount: 0 },
  moment = '',
): string {
  const words = MANIFEST_WORDS[language]
  return csvLine([
    upload.id, upload.author, upload.message, upload.kind, upload.createdAt.toISOString(), file, upload.fileName, words.metadata[upload.kind],
    String(reactions.hearts), String(reactions.commentCount), moment,
    upload.display === 'copy' || upload.display === 'poster-only' ? words.display[upload.display] : '',
  ])
}

/** The first line; the byte order mark makes spreadsheet apps read the accents as UTF-8. */
export function manifestHeader(language: Language): string {
  const { headings } = MANIFEST_WORDS[language]
  return `\uFEFF${csvLine(MANIFEST_COLUMNS.map(column => headings[column]))}`
}
