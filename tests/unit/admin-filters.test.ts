import { describe, expect, it } from 'vitest'
import type { AdminUpload } from '../../shared/schemas/admin'
import { compareNewestFirst, insertInOrder, matchesFilters, mergeNewestPage } from '../../utils/admin-filters'

function upload(id: string, minute: number, fields: Partial<AdminUpload> = {}): AdminUpload {
  const at = new Date(Date.UTC(2026, 10, 22, 18, minute)).toISOString()
  return {
    id, status: 'pending', kind: 'photo', author: 'Maria', message: '', fileName: 'a.jpg', contentType: 'image/jpeg',
    size: 1000, width: null, height: null, durationSec: null,
    url: `http://h/media/${id}?sig=1`, thumbUrl: `http://h/media/${id}-t?sig=1`, originalUrl: `http://h/media/${id}-o?sig=1`,
    isCover: false, createdAt: at, confirmedAt: at, updatedAt: at, ...fields,
  }
}

const ids = (list: AdminUpload[]) => list.map(item => item.id)

describe('admin list order', () => {
  it('is newest first, ties broken by id descending like the server', () => {
    const list = [upload('a', 1), upload('c', 2), upload('b', 2), upload('d', 0)].sort(compareNewestFirst)
    expect(ids(list)).toEqual(['c', 'b', 'a', 'd'])
  })

  it('puts a rolled-back upload back where it was', () => {
    const list = [upload('e', 5), upload('c', 3), upload('a', 1)]
    expect(ids(insertInOrder(list, upload('d', 4)))).toEqual(['e', 'd', 'c', 'a'])
    expect(ids(insertInOrder(list, upload('z', 9)))).toEqual(['z', 'e', 'c', 'a'])
    expect(ids(insertInOrder(list, upload('0', 0)))).toEqual(['e', 'c', 'a', '0'])
    expect(insertInOrder(list, upload('c', 3, { status: 'approved' }))[1]!.status).toBe('approved')
  })

  it('keeps an upload on screen only while it fits the status and kind filters', () => {
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'pending', kind: 'all' })).toBe(false)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'all', kind: 'all' })).toBe(true)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'approved', kind: 'video' })).toBe(false)
  })
})

describe('mergeNewestPage', () => {
  it('adds new uploads on top and drops ones that left the filter, within the fresh page', () => {
    const current = { items: [upload('c', 3), upload('b', 2), upload('a', 1)], nextCursor: null }
    const page = { items: [upload('d', 4), upload('c', 3), upload('a', 1)], nextCursor: null }
    expect(ids(mergeNewestPage(current, page).items)).toEqual(['d', 'c', 'a'])
  })

  it('keeps the older pages that were loaded with "load more", and their cursor', () => {
    const current = { items: [upload('f', 6), upload('e', 5), upload('d', 4), upload('c', 3)], nextCursor: 'after-c' }
    const page = { items: [upload('g', 7), upload('f', 6)], nextCursor: 'after-f' }
    const merged = mergeNewestPage(current, page)
    // e and d are older than the page's end: not the page's to judge.
    expect(ids(merged.items)).toEqual(['g', 'f', 'e', 'd', 'c'])
    expect(merged.nextCursor).toBe('after-c')
  })

  it('takes the page cursor when nothing older was loaded', () => {
    const current = { items: [upload('b', 2)], nextCursor: 'after-b' }
    const page = { items: [upload('c', 3), upload('b', 2)], nextCursor: 'after-b2' }
    expect(mergeNewestPage(current, page)).toMatchObject({ nextCursor: 'after-b2' })
  })

  it('empties the list when the filter matches nothing any more', () => {
    const current = { items: [upload('b', 2), upload('a', 1)], nextCursor: null }
    expect(mergeNewestPage(current, { items: [], nextCursor: null })).toEqual({ items: [], nextCursor: null })
  })

  it('takes changed fields but keeps the image addresses already shown for the same objects', () => {
    const shown = upload('a', 1)
    const fresh = upload('a', 1, { status: 'approved', author: 'Ana', url: 'http://h/media/a?sig=2', thumbUrl: 'http://h/media/a-t?sig=2', originalUrl: 'http://h/media/a-o?sig=2' })
    const [merged] = mergeNewestPage({ items: [shown], nextCursor: null }, { items: [fresh], nextCursor: null }).items
    expect(merged).toMatchObject({ status: 'approved', author: 'Ana', url: shown.url, thumbUrl: shown.thumbUrl, originalUrl: fresh.originalUrl })
  })

  it('takes new image addresses when the object changed (derived) or the old ones are too old', () => {
    const shown = upload('a', 1)
    const derived = upload('a', 1, { url: 'http://h/media/display/a.jpg', thumbUrl: 'http://h/media/thumb/a.jpg' })
    expect(mergeNewestPage({ items: [shown], nextCursor: null }, { items: [derived], nextCursor: null }).items[0]).toMatchObject({ url: derived.url, thumbUrl: derived.thumbUrl })
    const resigned = upload('a', 1, { url: 'http://h/media/a?sig=3' })
    expect(mergeNewestPage({ items: [shown], nextCursor: null }, { items: [resigned], nextCursor: null }, () => false).items[0]!.url).toBe(resigned.url)
  })
})
