import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pickedTwiceCheck } from '../../upload-client/duplicates'
import type { QueueItem } from '../../upload-client/item'
import { sha256OfChunks, HASH_CHUNK_BYTES } from '../../upload-client/sha256-chunks'
import { undoLeftMs } from '../../upload-client/undo'
import { photoSrcset, tileSrcset } from '../../app-utils/responsive-image'

const item = (key: string, fields: Partial<QueueItem> = {}) => ({ key, hash: null, done: false, duplicate: false, undo: null, ...fields }) as QueueItem

describe('sha256OfChunks', () => {
  it('hashes a blob across chunk boundaries exactly as one SHA-256 of its bytes', async () => {
    const bytes = Buffer.alloc(HASH_CHUNK_BYTES * 2 + 12345)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xFF
    expect(await sha256OfChunks(new Blob([bytes]))).toBe(createHash('sha256').update(bytes).digest('hex'))
    expect(await sha256OfChunks(new Blob([]))).toBe(createHash('sha256').digest('hex'))
  })
})

describe('pickedTwiceCheck', () => {
  it('lets the first copy hashed send, and only the later ones give up, even when both hashes are known', () => {
    const a = item('a', { hash: 'h' })
    const b = item('b', { hash: 'h' })
    const running = new Set(['a', 'b'])
    const pickedTwice = pickedTwiceCheck(() => [a, b], running)
    expect(pickedTwice(b)).toBe(false)
    expect(pickedTwice(a)).toBe(true)
    expect(pickedTwice(item('c', { hash: 'other' }))).toBe(false)
  })

  it('counts a copy already sent, but not one that stopped on an error, nor one that was itself a duplicate', () => {
    const sent = item('sent', { hash: 'h', done: true })
    const failed = item('failed', { hash: 'f' })
    const echo = item('echo', { hash: 'e', done: true, duplicate: true })
    const pickedTwice = pickedTwiceCheck(() => [sent, failed, echo], new Set())
    expect(pickedTwice(item('x', { hash: 'h' }))).toBe(true)
    expect(pickedTwice(item('y', { hash: 'e' }))).toBe(false)
    // The failed copy claimed its hash once, but is no longer running: the new one goes.
    expect(pickedTwiceCheck(() => [failed], new Set(['failed']))(failed)).toBe(false)
    expect(pickedTwice(item('z', { hash: 'f' }))).toBe(false)
    expect(pickedTwice(item('no-hash'))).toBe(false)
  })
})

describe('undoLeftMs', () => {
  const grant = { token: 't', windowSec: 900, until: 10_000 }
  it('is the time left of a sent upload\'s window, and 0 for anything else', () => {
    expect(undoLeftMs(item('a', { done: true, undo: grant }), 4_000)).toBe(6_000)
    expect(undoLeftMs(item('a', { done: true, undo: grant }), 10_000)).toBe(0)
    expect(undoLeftMs(item('a', { done: false, undo: grant }), 4_000)).toBe(0)
    expect(undoLeftMs(item('a', { done: true, duplicate: true, undo: grant }), 4_000)).toBe(0)
    expect(undoLeftMs(item('a', { done: true, undo: { ...grant, until: null } }), 4_000)).toBe(0)
  })
})

describe('photoSrcset', () => {
  it('lists each public image once with its width, and nothing when there is no choice', () => {
    expect(photoSrcset({ thumbUrl: '/t.webp', thumb2xUrl: '/t2.webp', url: '/d.jpg' })).toBe('/t.webp 480w, /t2.webp 960w, /d.jpg 2048w')
    expect(photoSrcset({ thumbUrl: '/t.webp', thumb2xUrl: null, url: '/d.jpg' })).toBe('/t.webp 480w, /d.jpg 2048w')
    expect(photoSrcset({ thumbUrl: '/d.jpg', url: '/d.jpg' })).toBeUndefined()
    expect(photoSrcset({ thumbUrl: null, url: '/d.jpg' })).toBeUndefined()
  })

  it('offers a tile the display image only above the 960 px variant', () => {
    expect(tileSrcset({ thumbUrl: '/t.webp', thumb2xUrl: '/t2.webp', url: '/d.jpg' })).toBe('/t.webp 480w, /t2.webp 960w, /d.jpg 2048w')
    expect(tileSrcset({ thumbUrl: '/t.webp', thumb2xUrl: null, url: '/d.jpg' })).toBeUndefined()
  })
})
