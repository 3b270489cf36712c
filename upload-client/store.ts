import { createStore, del, get, set, values, type UseStore } from 'idb-keyval'
import type { DisplayCopyMaker, UploadStatus } from '#shared/enums'
import type { MediaKind } from '#shared/limits'
import type { PublicImages } from './public-images'
import { UPLOAD_FILES_DB, UPLOAD_RECORDS_DB } from '~/app-utils/storage-keys'
import type { UndoGrant } from './undo'

/** Words the server has taken from this device for a file, and the revision they had here (item-words.ts). */
export interface SentWords { author: string, message: string, revision: number }

/** What the queue remembers about one file across reloads, locked phones and lost connections. */
export interface UploadRecord {
  /** Local key, made on this device. */
  key: string
  fileName: string
  contentType: string
  kind: MediaKind
  size: number
  durationSec: number | null
  author: string
  message: string
  addedAt: number
  /** The guest chose to send it (picking a file sends it): it goes by itself from now on, after a reload too. */
  submitted: boolean
  /** The server's id once init answered. */
  uploadId: string | null
  uploadType: 'single' | 'multipart' | null
  /** Parts the storage has acknowledged; never sent again. */
  partsDone: number[]
  done: boolean
  /** What confirm answered: `approved` (post-moderation) or `pending` (waits for the couple). */
  status: UploadStatus | null
  /** Why the file did not go, in words. */
  error: string | null
  /** The file itself is refused (too large, too long…): trying again cannot help. */
  errorFinal: boolean
  /** SHA-256 (hex) of the bytes sent, once computed; absent in records from before it existed. */
  hash?: string | null
  /** The same bytes were already sent (here or by anyone at the event): nothing was stored again. */
  duplicate?: boolean
  /** This device's right to remove the upload for a while after its confirm. */
  undo?: UndoGrant | null
  /** Orders this device's edits of `author` and `message` (item-words.ts); absent: the words given at pick. */
  wordsRevision?: number
  /** The words the server has taken from this device (init's, or an edit's), with their revision; null: none yet. */
  wordsSent?: SentWords | null
  /** The couple changed this upload's words: the server keeps theirs, and this device's edits stop. */
  wordsLocked?: boolean
  /** The couple's challenge the guest picked it for; dropped when the server no longer takes it. */
  challengeId?: string | null
  /** When the file was taken (its EXIF or `mvhd`), read once before it went; null: it says nothing. */
  takenAt?: string | null
  /**
   * Who makes a video's display copy, as init answered: kept, so that a page opened again on a
   * video still on its way makes and sends the copy too (the server takes it until confirm).
   */
  displayCopy?: DisplayCopyMaker | null
}

/**
 * Two small databases: the records, rewritten after every part, and the files themselves, written
 * once. Keeping the blob out of the record means a 500 MB video is copied into storage once, not
 * once per acknowledged part.
 */
let records: UseStore | undefined
let files: UseStore | undefined

function stores(): { records: UseStore, files: UseStore } | null {
  if (typeof indexedDB === 'undefined') return null
  records ??= createStore(UPLOAD_RECORDS_DB, 'records')
  files ??= createStore(UPLOAD_FILES_DB, 'files')
  return { records, files }
}

/** Every record, oldest first; an unreadable database is an empty one. */
export async function loadRecords(): Promise<UploadRecord[]> {
  const db = stores()
  if (!db) return []
  try {
    const all = await values<UploadRecord>(db.records)
    return all.sort((a, b) => a.addedAt - b.addedAt)
  }
  catch {
    return []
  }
}

/** One entry of a store, or null (none, or the browser refused). */
async function loadOne<T>(key: string, which: 'records' | 'files'): Promise<T | null> {
  const db = stores()
  if (!db) return null
  try {
    return (await get<T>(key, db[which])) ?? null
  }
  catch {
    return null
  }
}

/** One record as stored now: another sender (the service worker, another tab) may have moved it on. */
export function loadRecord(key: string): Promise<UploadRecord | null> {
  return loadOne<UploadRecord>(key, 'records')
}

export function loadFile(key: string): Promise<Blob | null> {
  return loadOne<Blob>(key, 'files')
}

/** False when the browser refused (private mode, storage full): the queue then lives in memory. */
export async function saveRecord(record: UploadRecord): Promise<boolean> {
  const db = stores()
  if (!db) return false
  try {
    await set(record.key, { ...record, partsDone: [...record.partsDone] }, db.records)
    return true
  }
  catch {
    return false
  }
}

export async function saveFile(key: string, file: Blob): Promise<boolean> {
  const db = stores()
  if (!db) return false
  try {
    await set(key, file, db.files)
    return true
  }
  catch {
    return false
  }
}

/** Where a photo's phone-made public images are kept, beside its file (they go with it). */
function publicImagesKeyOf(key: string): string {
  return `${key}#public-images`
}

/**
 * A photo's public images as made on this device, or `none` when the browser could not make them:
 * made once per photo, so a reload sends them without decoding the photo again.
 */
export type StoredPublicImages = PublicImages | 'none'

export async function savePublicImages(key: string, images: StoredPublicImages): Promise<boolean> {
  const db = stores()
  if (!db) return false
  try {
    await set(publicImagesKeyOf(key), images, db.files)
    return true
  }
  catch {
    return false
  }
}

export async function loadPublicImages(key: string): Promise<StoredPublicImages | null> {
  const db = stores()
  if (!db) return null
  try {
    return (await get<StoredPublicImages>(publicImagesKeyOf(key), db.files)) ?? null
  }
  catch {
    return null
  }
}

/** Where a file's row thumbnail is kept: beside its file, but kept after the file is let go (a sent row shows it). */
function thumbnailKeyOf(key: string): string {
  return `${key}#thumbnail`
}

export async function saveThumbnail(key: string, thumbnail: Blob): Promise<boolean> {
  const db = stores()
  if (!db) return false
  try {
    await set(thumbnailKeyOf(key), thumbnail, db.files)
    return true
  }
  catch {
    return false
  }
}

export function loadThumbnail(key: string): Promise<Blob | null> {
  return loadOne<Blob>(thumbnailKeyOf(key), 'files')
}

export async function removeFile(key: string): Promise<void> {
  const db = stores()
  if (!db) return
  await del(key, db.files).catch(() => undefined)
  await del(publicImagesKeyOf(key), db.files).catch(() => undefined)
}

export async function remove(key: string): Promise<void> {
  const db = stores()
  if (!db) return
  await del(key, db.files).catch(() => undefined)
  await del(publicImagesKeyOf(key), db.files).catch(() => undefined)
  await del(thumbnailKeyOf(key), db.files).catch(() => undefined)
  await del(key, db.records).catch(() => undefined)
}
