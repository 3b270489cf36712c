import { describe, expect, it } from 'vitest'
import { createRotation } from '../../composables/slideshow/rotation'
import type { GalleryItem } from '../../shared/schemas/gallery'

const item = (id: string): GalleryItem => ({
  id, kind: 'photo', author: '', message: '', url: `/m/${id}`, thumbUrl: null, thumb2xUrl: null, width: null, height: null, durationSec: null, createdAt: '2026-12-12T20:00:00.000Z',
  momentId: null, challengeId: null, hearts: 0, commentCount: 0, latestComment: null,
})
const items = (...ids: string[]) => ids.map(item)
const take = (rotation: ReturnType<typeof createRotation>, count: number) => {
  const shown: string[] = []
  let current: string | null = null
  for (let i = 0; i < count; i++) {
    current = rotation.next(current)?.id ?? null
    shown.push(current ?? '-')
  }
  return shown
}

describe('slideshow rotation', () => {
  it('offline, walks only the items whose image is saved, and keeps unsaved news for later', () => {
    const rotation = createRotation()
    rotation.update(items('d', 'c', 'b', 'a'))
    rotation.update(items('e', 'd', 'c', 'b', 'a'))
    const saved = new Set(['d', 'b'])
    const usable = (candidate: GalleryItem) => saved.has(candidate.id)
    const shown: string[] = []
    let current: string | null = null
    for (let i = 0; i < 5; i++) {
      current = rotation.next(current, usable)?.id ?? null
      shown.push(current ?? '-')
    }
    expect(shown).toEqual(['d', 'b', 'd', 'b', 'd'])
    // The news waited for its image: once saved, it comes first.
    saved.add('e')
    expect(rotation.next(current, usable)?.id).toBe('e')
  })

  it('offline with one saved item, keeps it on screen; with none, has nothing to show', () => {
    const rotation = createRotation()
    rotation.update(items('c', 'b', 'a'))
    expect(rotation.next(null, candidate => candidate.id === 'b')?.id).toBe('b')
    expect(rotation.next('b', candidate => candidate.id === 'b')?.id).toBe('b')
    expect(rotation.next('b', () => false)).toBeNull()
  })

  it('walks the pool newest first and loops', () => {
    const rotation = createRotation()
    rotation.update(items('c', 'b', 'a'))
    expect(take(rotation, 7)).toEqual(['c', 'b', 'a', 'c', 'b', 'a', 'c'])
  })

  it('shows newly approved items first, newest first, then goes on where it was', () => {
    const rotation = createRotation()
    rotation.update(items('c', 'b', 'a'))
    expect(take(rotation, 2)).toEqual(['c', 'b'])
    rotation.update(items('e', 'd', 'c', 'b', 'a'))
    expect(rotation.next('b')?.id).toBe('e')
    expect(rotation.next('e')?.id).toBe('d')
    expect(rotation.next('d')?.id).toBe('a')
  })

  it('forgets rejected or deleted items at once, also from the new-items queue', () => {
    const rotation = createRotation()
    rotation.update(items('c', 'b', 'a'))
    const { added, removed } = rotation.update(items('d', 'c', 'a'))
    expect(added).toEqual(['d'])
    expect([...removed]).toEqual(['b'])
    rotation.update(items('c', 'a'))
    expect(take(rotation, 4)).toEqual(['c', 'a', 'c', 'a'])
    expect(rotation.has('d')).toBe(false)
  })

  it('never shows the item already on screen twice in a row unless it is the only one', () => {
    const rotation = createRotation()
    rotation.update(items('a'))
    expect(rotation.next('a')?.id).toBe('a')
    rotation.update(items('b', 'a'))
    expect(rotation.next('b')?.id).toBe('a')
  })

  it('answers null when there is nothing, and keeps what it had when told nothing new', () => {
    const rotation = createRotation()
    expect(rotation.next()).toBeNull()
    rotation.update([])
    expect(rotation.next()).toBeNull()
  })

  it('holds at most `max` items however long it runs', () => {
    const rotation = createRotation(50)
    for (let poll = 0; poll < 500; poll++) {
      rotation.update(Array.from({ length: 80 }, (_, i) => item(`p${poll}-${i}`)))
      rotation.next()
    }
    expect(rotation.held.pool).toBe(50)
    expect(rotation.held.priority).toBeLessThanOrEqual(50)
  })
})
