import { describe, expect, it } from 'vitest'
import { blankControlCharacters, hasControlCharacters } from '#shared/control-characters'
import { guestText } from '#shared/schemas/common'
import { cleanText } from '~/composables/upload/words'
import { moveLegacyKeys, STORAGE_PREFIX, ADMIN_LAST_EMAIL_KEY, ADMIN_VIEW_KEY, EVENT_LIMITS_KEY, GUEST_AUTHOR_KEY, UPLOAD_FILES_DB, UPLOAD_RECORDS_DB } from '~/app-utils/storage-keys'

/** A Storage over a Map, as localStorage behaves for these calls. */
function memoryStorage(entries: Record<string, string>): Storage & { entries: () => Record<string, string> } {
  const map = new Map(Object.entries(entries))
  return {
    get length() { return map.size },
    key: (index: number) => [...map.keys()][index] ?? null,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    clear: () => map.clear(),
    entries: () => Object.fromEntries(map),
  }
}

describe('browser storage keys', () => {
  it('every key and database has the one prefix', () => {
    for (const key of [GUEST_AUTHOR_KEY, EVENT_LIMITS_KEY, ADMIN_VIEW_KEY, ADMIN_LAST_EMAIL_KEY, UPLOAD_RECORDS_DB, UPLOAD_FILES_DB]) expect(key.startsWith(STORAGE_PREFIX), key).toBe(true)
    expect([UPLOAD_RECORDS_DB, UPLOAD_FILES_DB]).toEqual(['event-media-upload-queue', 'event-media-upload-files'])
  })

  it('moves the earlier keys\' values to today\'s, keeps a value already there, and leaves other keys alone', () => {
    const storage = memoryStorage({
      'event-media:author': 'Vó Nina',
      'event-media:limits': '{"maxFileSizeBytes":1}',
      'em-admin-view': 'dense',
      'em-admin-last-email': 'old@example.com',
      'event-media-admin-last-email': 'new@example.com',
      'other-app': 'x',
    })
    moveLegacyKeys(storage)
    expect(storage.entries()).toEqual({
      'event-media-author': 'Vó Nina',
      'event-media-limits': '{"maxFileSizeBytes":1}',
      'event-media-admin-view': 'dense',
      'event-media-admin-last-email': 'new@example.com',
      'other-app': 'x',
    })
    moveLegacyKeys(storage)
    expect(storage.entries()['event-media-author']).toBe('Vó Nina')
  })
})

describe('one control-character rule for the page and the server', () => {
  it('what the page sends from a pasted text is what the server accepts', () => {
    const pasted = 'Ana\tBruno\u0007\n'
    expect(hasControlCharacters(pasted)).toBe(true)
    expect(blankControlCharacters(pasted)).toBe('Ana Bruno \n')
    expect(cleanText(pasted, 100)).toBe('Ana Bruno')
    expect(guestText(100).safeParse(cleanText(pasted, 100)).success).toBe(true)
    expect(guestText(100).safeParse(pasted).success).toBe(false)
    expect(guestText(100).safeParse('linha\noutra').success).toBe(true)
  })
})
