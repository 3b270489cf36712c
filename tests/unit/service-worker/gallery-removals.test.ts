import { describe, expect, it } from 'vitest'
import type { GalleryItem, GalleryPage } from '#shared/schemas/gallery'
import { mediaAddresses, removedFromAnswer, withoutItems } from '../../../service-worker/gallery-removals'

function item(id: string, minute: number, thumb = true): GalleryItem {
  return {
    id, kind: 'photo', author: '', message: '', width: 10, height: 10, durationSec: null,
    url: `/media/${id}-display.jpg`, thumbUrl: thumb ? `/media/${id}-thumb.jpg` : null, thumb2xUrl: thumb ? `/media/${id}-thumb2x.jpg` : null,
    createdAt: `2026-11-22T20:${String(minute).padStart(2, '0')}:00.000Z`,
    momentId: null, challengeId: null, hearts: 0, commentCount: 0, latestComment: null,
  }
}
const page = (items: GalleryItem[], nextCursor: string | null = null): GalleryPage => ({ items, nextCursor })

describe('what left the gallery between two answers', () => {
  const [a, b, c, d] = [item('a', 40), item('b', 30), item('c', 20), item('d', 10)]

  it('an item missing from a complete answer was removed', () => {
    expect(removedFromAnswer(page([a, b, c]), page([a, c])).map(x => x.id)).toEqual(['b'])
  })

  it('an item pushed below the last one of a partial answer was not removed', () => {
    // A new approval on top pushes c out of a page of three.
    const fresh = item('e', 50)
    expect(removedFromAnswer(page([a, b, c], 'next'), page([fresh, a, b], 'next'))).toEqual([])
  })

  it('an item inside the range of a partial answer and missing from it was removed', () => {
    expect(removedFromAnswer(page([a, b, c], 'next'), page([a, c, d], 'next')).map(x => x.id)).toEqual(['b'])
  })

  it('an empty partial answer says nothing; an empty complete one says all left', () => {
    expect(removedFromAnswer(page([a]), page([], 'next'))).toEqual([])
    expect(removedFromAnswer(page([a, b]), page([])).map(x => x.id)).toEqual(['a', 'b'])
  })

  it('a longer earlier answer (the slideshow\'s 100) is read within the range of a shorter fresh one (the gallery\'s 24)', () => {
    expect(removedFromAnswer(page([a, b, c, d]), page([a, c], 'next')).map(x => x.id)).toEqual(['b'])
  })

  it('names every cached address of the removed items, and prunes them from kept answers', () => {
    expect(mediaAddresses([a, item('v', 1, false)])).toEqual(['/media/a-display.jpg', '/media/a-thumb.jpg', '/media/a-thumb2x.jpg', '/media/v-display.jpg'])
    const kept = page([a, b, c], 'next')
    expect(withoutItems(kept, new Set(['b']))).toEqual(page([a, c], 'next'))
    expect(withoutItems(kept, new Set(['z']))).toBe(kept)
  })
})
