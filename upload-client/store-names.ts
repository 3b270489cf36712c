/**
 * The queue's IndexedDB database names, apart from store.ts so the page can ask whether an earlier
 * visit left anything (indexedDB.databases()) without loading the store itself.
 */
export const UPLOAD_RECORDS_DB = 'event-media-upload-queue'
export const UPLOAD_FILES_DB = 'event-media-upload-files'
