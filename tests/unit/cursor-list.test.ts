import { describe, expect, it } from 'vitest'
import { appendPage, mergeFirstPage, sameItem } from '../../composables/useGallery'
import type { GalleryItem } from '../../shared/schemas/gallery'

const at = (minute: number) => new Date(Date.UTC(2026, 11, 12, 20, minute)).toISOString()
const item = (id: string, minute: number, url = `/m/${id}`): GalleryItem => ({
  id, kind: 'photo', author: '', message: '', url, thumbUrl: null, width: null, height: null, durationSec: null, createdAt: at(minute),
})
const ids = (list: GalleryItem[]) => list.map(i => i.id)

describe('gallery merge', () => {
  it('puts new items on top and counts them', () => {
    const shown = [item('c', 3), item('b', 2), item('a', 1)]
    const merged = mergeFirstPage(shown, { items: [item('e', 5), item('d', 4), item('c', 3)], nextCursor: 'x' })
    expect(ids(merged.items)).toEqual(['e', 'd', 'c', 'b', 'a'])
    expect(merged.added).toBe(2)
  })

  it('drops items the first page should hold but no longer does; keeps older ones it says nothing about', () => {
    const shown = [item('d', 4), item('c', 3), item('b', 2), item('a', 1)]
    const merged = mergeFirstPage(shown, { items: [item('d', 4), item('b', 2)], nextCursor: 'x' })
    expect(ids(merged.items)).toEqual(['d', 'b', 'a'])
  })

  it('a last page (no cursor) is the whole set', () => {
    const merged = mergeFirstPage([item('b', 2), item('a', 1)], { items: [item('b', 2)], nextCursor: null })
    expect(ids(merged.items)).toEqual(['b'])
  })

  it('takes changed copies and places a late approval by its time', () => {
    const merged = mergeFirstPage([item('c', 3), item('a', 1)], { items: [item('c', 3, '/new'), item('b', 2), item('a', 1)], nextCursor: null })
    expect(ids(merged.items)).toEqual(['c', 'b', 'a'])
    expect(merged.items[0]!.url).toBe('/new')
  })

  it('keeps the shown copy when only the signature changed, so the picture is not loaded again', () => {
    const shown = item('c', 3, '/media/orig/c.jpg?exp=1&sig=a')
    const resigned = item('c', 3, '/media/orig/c.jpg?exp=2&sig=b')
    expect(sameItem(shown, resigned)).toBe(true)
    expect(mergeFirstPage([shown], { items: [resigned], nextCursor: null }).items[0]).toBe(shown)
    // …unless the caller says the shown copy is too old to keep (its signature may expire).
    expect(mergeFirstPage([shown], { items: [resigned], nextCursor: null }, () => false).items[0]).toBe(resigned)
    expect(sameItem(shown, { ...resigned, message: 'editado' })).toBe(false)
  })

  it('appending a page never lists an item twice', () => {
    expect(ids(appendPage([item('b', 2), item('a', 1)], { items: [item('a', 1), item('z', 0)], nextCursor: null }))).toEqual(['b', 'a', 'z'])
  })
})
