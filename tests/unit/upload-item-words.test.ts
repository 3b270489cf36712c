import { afterEach, describe, expect, it, vi } from 'vitest'
import type { QueueItem } from '../../upload-client/item'
import { createWordsSender, setItemWords, wordsOwed } from '../../upload-client/item-words'

/**
 * The order of a file's word edits, in the page's sender. fetch is stubbed here: what is tested is
 * which requests leave and in what order, and the answers a real server gives are written out
 * (409 WORDS_LOCKED comes from the couple's edit, which needs the admin; the browser test
 * tests/browser/upload-words-typing.test.ts runs the same sender against the real server).
 */

function sentItem(patch: Partial<QueueItem> = {}): QueueItem {
  return {
    key: 'k1', fileName: 'IMG_0001.JPG', contentType: 'image/jpeg', kind: 'photo', size: 3_000_000,
    durationSec: null, author: '', message: '', addedAt: 1, submitted: true, uploadId: 'u1',
    uploadType: 'single', partsDone: [], done: false, status: null, error: null, errorFinal: false,
    hash: null, duplicate: false, undo: { token: 'tok', windowSec: 600, until: null },
    wordsRevision: 0, wordsSent: { author: '', message: '', revision: 0 }, wordsLocked: false,
    file: null, phase: 'sending', sentBytes: 0, thumbUrl: null,
    ...patch,
  }
}

interface Call { body: { author: string, message: string, revision?: number }, answer: (status: number, body: unknown) => void }

/** A fetch that holds every request until the test answers it. */
function heldFetch() {
  const calls: Call[] = []
  vi.stubGlobal('fetch', (_url: string, init: RequestInit) => new Promise<Response>((resolve) => {
    calls.push({
      body: JSON.parse(String(init.body)),
      answer: (status, body) => resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
    })
  }))
  return calls
}

const settle = () => new Promise(resolve => setTimeout(resolve, 10))

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('a file\'s words go one edit at a time, the latest last', () => {
  it('edits made while one is on its way wait for its answer; then only the latest goes, with a higher revision', async () => {
    const calls = heldFetch()
    const item = sentItem()
    const send = createWordsSender({ persist: async () => undefined, gone: () => false })
    setItemWords(item, { author: 'Tía', message: '' }, 1000)
    send(item)
    for (const author of ['Tía L', 'Tía Lu', 'Tía Lucía']) {
      setItemWords(item, { author, message: '' }, 1001)
      send(item)
    }
    await settle()
    expect(calls.map(call => call.body)).toEqual([{ author: 'Tía', message: '', revision: 1000 }])
    calls[0]!.answer(200, { id: 'u1', author: 'Tía', message: '' })
    await settle()
    expect(calls.map(call => call.body.author)).toEqual(['Tía', 'Tía Lucía'])
    // The clock stood still: each edit still got a revision above the last.
    expect(calls[1]!.body.revision).toBe(1003)
    calls[1]!.answer(200, { id: 'u1', author: 'Tía Lucía', message: '' })
    await settle()
    expect(calls).toHaveLength(2)
    expect(item.wordsSent).toEqual({ author: 'Tía Lucía', message: '', revision: 1003 })
    expect(wordsOwed(item)).toBe(false)
  })

  it('409 WORDS_LOCKED is final: no more requests for the file, even for new words, and the couple\'s words are what it shows', async () => {
    const calls = heldFetch()
    const item = sentItem()
    const saved: QueueItem[] = []
    const send = createWordsSender({ persist: async (current) => {
      saved.push(structuredClone({ ...current }))
    }, gone: () => false })
    setItemWords(item, { author: 'Ana', message: 'Oi' }, 2000)
    send(item)
    await settle()
    calls[0]!.answer(409, { statusCode: 409, data: { code: 'WORDS_LOCKED', author: 'Ana Souza', message: 'Parabéns' } })
    await settle()
    expect(item.wordsLocked).toBe(true)
    expect(item.wordsSent).toMatchObject({ author: 'Ana Souza', message: 'Parabéns' })
    expect(saved.at(-1)!.wordsLocked).toBe(true)
    setItemWords(item, { author: 'Ana B', message: 'Oi' }, 3000)
    send(item)
    await settle()
    expect(calls).toHaveLength(1)
    expect(wordsOwed(item)).toBe(false)
  })

  it('a refusal (the window over) stops the file\'s sending until its words change again: no loop', async () => {
    const calls = heldFetch()
    const item = sentItem()
    const send = createWordsSender({ persist: async () => undefined, gone: () => false })
    setItemWords(item, { author: 'Bia', message: '' }, 4000)
    send(item)
    await settle()
    calls[0]!.answer(409, { statusCode: 409, data: { code: 'UNDO_EXPIRED' } })
    await settle()
    expect(calls).toHaveLength(1)
    expect(item.wordsSent).toEqual({ author: '', message: '', revision: 0 })
    setItemWords(item, { author: 'Bia S', message: '' }, 5000)
    send(item)
    await settle()
    expect(calls).toHaveLength(2)
  })

  it('nothing goes for a file the guest removed, a duplicate, or one whose words the server already has', async () => {
    const calls = heldFetch()
    const send = createWordsSender({ persist: async () => undefined, gone: item => item.key === 'gone' })
    const gone = sentItem({ key: 'gone' })
    setItemWords(gone, { author: 'X', message: '' }, 6000)
    const duplicate = sentItem({ key: 'dup', duplicate: true })
    setItemWords(duplicate, { author: 'X', message: '' }, 6000)
    const current = sentItem({ key: 'same', author: 'Y', wordsRevision: 7, wordsSent: { author: 'Y', message: '', revision: 7 } })
    for (const item of [gone, duplicate, current]) send(item)
    await settle()
    expect(calls).toHaveLength(0)
  })
})
