import { mountSuspended } from '@nuxt/test-utils/runtime'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { useCursorList } from '#imports'

interface Row { id: string, createdAt: string }
type Page = { items: Row[], nextCursor: string | null }

const row = (id: string, minute: number): Row => ({ id, createdAt: new Date(Date.UTC(2026, 11, 12, 20, minute)).toISOString() })
const CLOSED = new Error('gallery closed')

/** A list over `fetchPage` for as long as a component is mounted, as the guest pages hold theirs. */
async function mountList(fetchPage: (cursor?: string) => Promise<Page>) {
  let list!: ReturnType<typeof useCursorList<Row, Page>>
  const wrapper = await mountSuspended(defineComponent({
    setup() {
      list = useCursorList<Row, Page>({ fetchPage, pollMs: 60_000, closesOn: error => error === CLOSED })
      return () => h('div')
    },
  }))
  return { wrapper, list }
}

describe('useCursorList', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('asks once more after a refresh on its way when asked meanwhile, so the last answer is the newest', async () => {
    const answers: ((page: Page) => void)[] = []
    const fetchPage = vi.fn(() => new Promise<Page>(resolve => answers.push(resolve)))
    const { wrapper, list } = await mountList(fetchPage)
    const first = list.refreshNow()
    const second = list.refreshNow()
    expect(fetchPage).toHaveBeenCalledTimes(1)
    answers[0]!({ items: [row('a', 1)], nextCursor: null })
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchPage).toHaveBeenCalledTimes(2)
    answers[1]!({ items: [row('b', 2), row('a', 1)], nextCursor: null })
    await Promise.all([first, second])
    expect(list.items.value.map(item => item.id)).toEqual(['b', 'a'])
    expect(fetchPage).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })

  it('empties the list on an answer that closes it, and shows the next page again', async () => {
    const fetchPage = vi.fn<() => Promise<Page>>()
      .mockResolvedValueOnce({ items: [row('a', 1)], nextCursor: 'older' })
      .mockRejectedValueOnce(CLOSED)
      .mockResolvedValueOnce({ items: [row('a', 1)], nextCursor: null })
    const { wrapper, list } = await mountList(fetchPage)
    await list.reload()
    expect(list.items.value).toHaveLength(1)
    await list.refreshNow()
    expect(list.items.value).toEqual([])
    expect(list.nextCursor.value).toBeNull()
    expect(list.error.value).toBe(CLOSED)
    await list.refreshNow()
    expect(list.error.value).toBeNull()
    expect(list.items.value.map(item => item.id)).toEqual(['a'])
    wrapper.unmount()
  })

  it('leaves what is shown as it was after any other failed refresh', async () => {
    const fetchPage = vi.fn<() => Promise<Page>>()
      .mockResolvedValueOnce({ items: [row('a', 1)], nextCursor: null })
      .mockRejectedValueOnce(new Error('network down'))
    const { wrapper, list } = await mountList(fetchPage)
    await list.reload()
    await list.refreshNow()
    expect(list.items.value.map(item => item.id)).toEqual(['a'])
    expect(list.error.value).toBeNull()
    wrapper.unmount()
  })
})
