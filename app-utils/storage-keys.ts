/**
 * Every name this app stores under in the browser (localStorage keys, IndexedDB databases), under
 * one prefix, so a look at a phone's storage tells this app's data apart and nothing is named twice.
 * The service worker's Cache Storage names are its own (service-worker/addresses.ts): the worker
 * deletes and recreates those caches itself.
 */
export const STORAGE_PREFIX = 'event-media-'

/** The guest's name, remembered for the next visit (the upload page and the guestbook alike). */
export const GUEST_AUTHOR_KEY = `${STORAGE_PREFIX}author`
/** The event's file limits seen on the last visit: the upload page may open offline. */
export const EVENT_LIMITS_KEY = `${STORAGE_PREFIX}limits`
/** The admin's list layout (cards or dense). */
export const ADMIN_VIEW_KEY = `${STORAGE_PREFIX}admin-view`
/** The last email the admin signed in with, offered again on the login form. */
export const ADMIN_LAST_EMAIL_KEY = `${STORAGE_PREFIX}admin-last-email`

/**
 * The upload queue's IndexedDB databases. Their names already had the prefix and keep it: a
 * service worker of the previous version may be sending from them in Background Sync while a page
 * of this version opens, and a renamed database would leave its files behind.
 */
export const UPLOAD_RECORDS_DB = `${STORAGE_PREFIX}upload-queue`
export const UPLOAD_FILES_DB = `${STORAGE_PREFIX}upload-files`

/** localStorage keys of earlier versions, and where their values live now. */
const LEGACY_KEYS: Record<string, string> = {
  'event-media:author': GUEST_AUTHOR_KEY,
  'event-media:limits': EVENT_LIMITS_KEY,
  'em-admin-view': ADMIN_VIEW_KEY,
  'em-admin-last-email': ADMIN_LAST_EMAIL_KEY,
}

/**
 * Moves what an earlier version stored under its keys to today's (a guest's remembered name on a
 * phone that visited before): a value already under today's key wins; the old key goes either way.
 */
export function moveLegacyKeys(storage: Storage): void {
  for (const [old, current] of Object.entries(LEGACY_KEYS)) {
    const value = storage.getItem(old)
    if (value === null) continue
    if (storage.getItem(current) === null) storage.setItem(current, value)
    storage.removeItem(old)
  }
}
