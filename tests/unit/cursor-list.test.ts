import { describe, expect, it } from 'vitest'
import { appendPage, insertInOrder, keepShownUrls, mergeFirstPage, newestFirst } from '#shared/cursor-merge'
import { mostHeartedFirst, uploadOrder } from '../../app-utils/admin-filters'
import type { AdminUpload } from '../../shared/schemas/admin'
import type { GalleryItem } from '../../shared/schemas/gallery'

const at = (minute: number) => new Date(Date.UTC(2026, 11, 12, 20, minute)).toISOString()
const item = (id: string, minute: number, url = `/m/${id}`): GalleryItem => ({
  id, kind: 'photo', author: '', message: '', url, thumbUrl: null, thumb2xUrl: null, width: null, height: null, durationSec: null, createdAt: at(minute),
  momentId: null, challengeId: null, hearts: 0, commentCount: 0, latestComment: null,
})

function upload(id: string, minute: number, fields: Partial<AdminUpload> = {}): AdminUpload {
  const at = new Date(Date.UTC(2026, 10, 22, 18, minute)).toISOString()
  return {
    id, status: 'pending', kind: 'photo', author: 'Maria', message: '', fileName: 'a.jpg', contentType: 'image/jpeg',
    size: 1000, width: null, height: null, durationSec: null,
    url: `http://h/media/${id}?sig=1`, thumbUrl: `http://h/media/${id}-t?sig=1`, thumb2xUrl: null, publicImage: null, display: null, videoCodec: null, originalUrl: `http://h/media/${id}-o?sig=1`,
    isCover: false, hearts: 0, commentCount: 0, momentId: null, takenAt: null, challengeId: null, createdAt: at, confirmedAt: at, updatedAt: at, ...fields,
  }
}

const ids = (list: { id: string }[]) => list.map(entry => entry.id)
/** A list on screen; its cursor says there are older pages unless told otherwise. */
const shown = <T>(items: T[], nextCursor: string | null = 'older') => ({ items, nextCursor })

describe('live list order', () => {
  it('is newest first, ties broken by id descending like the server', () => {
    const list = [upload('a', 1), upload('c', 2), upload('b', 2), upload('d', 0)].sort(newestFirst)
    expect(ids(list)).toEqual(['c', 'b', 'a', 'd'])
  })

  it('puts a rolled-back upload back where it was', () => {
    const list = [upload('e', 5), upload('c', 3), upload('a', 1)]
    expect(ids(insertInOrder(list, upload('d', 4)))).toEqual(['e', 'd', 'c', 'a'])
    expect(ids(insertInOrder(list, upload('z', 9)))).toEqual(['z', 'e', 'c', 'a'])
    expect(ids(insertInOrder(list, upload('0', 0)))).toEqual(['e', 'c', 'a', '0'])
    expect(insertInOrder(list, upload('c', 3, { status: 'approved' }))[1]!.status).toBe('approved')
  })

  it('appending a page never lists an item twice', () => {
    expect(ids(appendPage([item('b', 2), item('a', 1)], { items: [item('a', 1), item('z', 0)], nextCursor: null }))).toEqual(['b', 'a', 'z'])
  })
})

describe('mergeFirstPage', () => {
  it('puts new items on top and counts them', () => {
    const merged = mergeFirstPage(shown([item('c', 3), item('b', 2), item('a', 1)]), { items: [item('e', 5), item('d', 4), item('c', 3)], nextCursor: 'x' })
    expect(ids(merged.items)).toEqual(['e', 'd', 'c', 'b', 'a'])
    expect(merged.added).toBe(2)
  })

  it('drops items the first page should hold but no longer does; keeps older ones it says nothing about', () => {
    const merged = mergeFirstPage(shown([item('d', 4), item('c', 3), item('b', 2), item('a', 1)]), { items: [item('d', 4), item('b', 2)], nextCursor: 'x' })
    expect(ids(merged.items)).toEqual(['d', 'b', 'a'])
  })

  it('adds new uploads on top and drops ones that left the filter, within the fresh page', () => {
    const current = { items: [upload('c', 3), upload('b', 2), upload('a', 1)], nextCursor: null }
    const page = { items: [upload('d', 4), upload('c', 3), upload('a', 1)], nextCursor: null }
    expect(ids(mergeFirstPage(current, page).items)).toEqual(['d', 'c', 'a'])
  })

  it('a last page (no cursor) is the whole set', () => {
    const merged = mergeFirstPage(shown([item('b', 2), item('a', 1)]), { items: [item('b', 2)], nextCursor: null })
    expect(ids(merged.items)).toEqual(['b'])
  })

  it('keeps the older pages that were loaded with "load more", and their cursor', () => {
    const current = { items: [upload('f', 6), upload('e', 5), upload('d', 4), upload('c', 3)], nextCursor: 'after-c' }
    const page = { items: [upload('g', 7), upload('f', 6)], nextCursor: 'after-f' }
    const merged = mergeFirstPage(current, page)
    // e and d are older than the page's end: not the page's to judge.
    expect(ids(merged.items)).toEqual(['g', 'f', 'e', 'd', 'c'])
    expect(merged.nextCursor).toBe('after-c')
  })

  it('takes the page cursor when nothing older was loaded', () => {
    const current = { items: [upload('b', 2)], nextCursor: 'after-b' }
    const page = { items: [upload('c', 3), upload('b', 2)], nextCursor: 'after-b2' }
    expect(mergeFirstPage(current, page)).toMatchObject({ nextCursor: 'after-b2' })
  })

  it('empties the list when the filter matches nothing any more', () => {
    const current = { items: [upload('b', 2), upload('a', 1)], nextCursor: null }
    expect(mergeFirstPage(current, { items: [], nextCursor: null })).toEqual({ items: [], nextCursor: null, added: 0 })
  })

  it('takes changed copies and places a late approval by its time', () => {
    const merged = mergeFirstPage(shown([item('c', 3), item('a', 1)]), { items: [item('c', 3, '/new'), item('b', 2), item('a', 1)], nextCursor: null })
    expect(ids(merged.items)).toEqual(['c', 'b', 'a'])
    expect(merged.items[0]!.url).toBe('/new')
  })

  it('keeps the shown copy when only the signature changed, so the picture is not loaded again', () => {
    const before = item('c', 3, '/media/orig/c.jpg?exp=1&sig=a')
    const resigned = item('c', 3, '/media/orig/c.jpg?exp=2&sig=b')
    expect(keepShownUrls(before, resigned)).toBe(before)
    expect(mergeFirstPage(shown([before], null), { items: [resigned], nextCursor: null }).items[0]).toBe(before)
    // …unless the caller says the shown copy is too old to keep (its signature may expire).
    expect(mergeFirstPage(shown([before], null), { items: [resigned], nextCursor: null }, () => false).items[0]).toBe(resigned)
    const edited = keepShownUrls(before, { ...resigned, message: 'editado' })
    expect(edited).not.toBe(before)
    expect(edited).toMatchObject({ message: 'editado', url: before.url })
  })

  it('takes changed fields but keeps the image addresses already shown for the same objects', () => {
    const before = upload('a', 1)
    const fresh = upload('a', 1, { status: 'approved', author: 'Ana', url: 'http://h/media/a?sig=2', thumbUrl: 'http://h/media/a-t?sig=2', originalUrl: 'http://h/media/a-o?sig=2' })
    const [merged] = mergeFirstPage({ items: [before], nextCursor: null }, { items: [fresh], nextCursor: null }).items
    expect(merged).toMatchObject({ status: 'approved', author: 'Ana', url: before.url, thumbUrl: before.thumbUrl, originalUrl: fresh.originalUrl })
  })

  it('takes new image addresses when the object changed (derived) or the old ones are too old', () => {
    const before = upload('a', 1)
    const derived = upload('a', 1, { url: 'http://h/media/display/a.jpg', thumbUrl: 'http://h/media/thumb/a.jpg' })
    expect(mergeFirstPage({ items: [before], nextCursor: null }, { items: [derived], nextCursor: null }).items[0]).toMatchObject({ url: derived.url, thumbUrl: derived.thumbUrl })
    const resigned = upload('a', 1, { url: 'http://h/media/a?sig=3' })
    expect(mergeFirstPage({ items: [before], nextCursor: null }, { items: [resigned], nextCursor: null }, () => false).items[0]!.url).toBe(resigned.url)
  })
})

describe('live lists of items without media', () => {
  const message = (id: string, minute: number, text: string) => ({ id, createdAt: at(minute), author: 'Ana', text })
  const mine = (id: string, minute: number, thumbUrl?: string) => ({ id, createdAt: at(minute), status: 'pending', ...(thumbUrl ? { thumbUrl } : {}) })

  it('keeps the shown copy of an unchanged message and takes an edited one', () => {
    const before = message('a', 1, 'Parabéns')
    expect(keepShownUrls(before, { ...before })).toBe(before)
    const merged = mergeFirstPage(shown([before], null), { items: [message('b', 2, 'Oi'), message('a', 1, 'Parabéns!')], nextCursor: null })
    expect(merged).toEqual({ items: [message('b', 2, 'Oi'), message('a', 1, 'Parabéns!')], nextCursor: null, added: 1 })
    expect(Object.keys(merged.items[1]!)).not.toContain('url')
  })

  it('gives an upload its thumbnail once there is one, and keeps a re-signed one as shown', () => {
    const waiting = mine('a', 1)
    const withThumb = mine('a', 1, '/t/a.jpg?sig=1')
    expect(keepShownUrls(waiting, withThumb)).toEqual(withThumb)
    expect(keepShownUrls(withThumb, mine('a', 1, '/t/a.jpg?sig=2'))).toBe(withThumb)
  })
})

describe('a live list under most hearted first', () => {
  const hearted = (id: string, minute: number, hearts: number) => upload(id, minute, { hearts })

  it('orders as the server\'s sort=hearts: most hearts first, ties newest first', () => {
    const list = [hearted('a', 1, 2), hearted('b', 2, 5), hearted('c', 3, 2), hearted('d', 4, 0)].sort(mostHeartedFirst)
    expect(ids(list)).toEqual(['b', 'c', 'a', 'd'])
    expect(uploadOrder('hearts')).toBe(mostHeartedFirst)
    expect(uploadOrder('newest')).toBe(newestFirst)
  })

  it('takes an upload that climbed into the first page from it, and never lists it twice among the older ones', () => {
    // Shown: two pages; `z`, old and on the second page, is hearted up to the top.
    const current = { items: [hearted('b', 2, 5), hearted('c', 3, 4), hearted('a', 1, 3), hearted('z', 0, 1)], nextCursor: 'after-z' }
    const page = { items: [hearted('z', 0, 9), hearted('b', 2, 5)], nextCursor: 'after-b' }
    const merged = mergeFirstPage(current, page, () => true, mostHeartedFirst)
    expect(ids(merged.items)).toEqual(['z', 'b', 'c', 'a'])
    expect(merged.items[0]!.hearts).toBe(9)
    expect(merged.nextCursor).toBe('after-z')
  })

  it('keeps by hearts, not by time, the older uploads the fresh page says nothing about', () => {
    // `n` is the newest upload but has fewest hearts: under newest-first it would be judged as the page's.
    const current = { items: [hearted('b', 2, 5), hearted('c', 3, 4), hearted('n', 9, 0)], nextCursor: 'after-n' }
    const page = { items: [hearted('b', 2, 6), hearted('c', 3, 4)], nextCursor: 'after-c' }
    expect(ids(mergeFirstPage(current, page, () => true, mostHeartedFirst).items)).toEqual(['b', 'c', 'n'])
    expect(ids(mergeFirstPage(current, page).items)).toEqual(['b', 'c'])
  })

  it('puts a rolled-back upload back at its place by hearts', () => {
    const list = [hearted('b', 2, 5), hearted('a', 1, 1)]
    expect(ids(insertInOrder(list, hearted('n', 9, 3), mostHeartedFirst))).toEqual(['b', 'n', 'a'])
    expect(ids(insertInOrder(list, hearted('n', 9, 3)))).toEqual(['n', 'b', 'a'])
  })
})
