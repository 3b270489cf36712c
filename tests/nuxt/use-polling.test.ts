import { mountSuspended } from '@nuxt/test-utils/runtime'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { usePolling } from '#imports'

const INTERVAL_MS = 1000

/** Polls `task` for as long as a component is mounted, as the gallery and the admin list do. */
async function mountPolling(task: () => Promise<unknown>, enabled = ref(true)) {
  let polling!: ReturnType<typeof usePolling>
  const wrapper = await mountSuspended(defineComponent({
    setup() {
      polling = usePolling(task, INTERVAL_MS, enabled)
      return () => h('div')
    },
  }))
  return { wrapper, enabled, refreshNow: () => polling.refreshNow() }
}

/** What the browser does when the tab is hidden or shown again (happy-dom's tab never changes). */
function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state })
  document.dispatchEvent(new Event('visibilitychange'))
}

/** A task whose answer the test holds back until it calls `finish()`. */
function slowTask() {
  let finish!: () => void
  const task = vi.fn(() => new Promise<void>((resolve) => {
    finish = resolve
  }))
  return { task, finish: () => finish() }
}

describe('usePolling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    setVisibility('visible')
  })
  afterEach(() => {
    vi.useRealTimers()
    Reflect.deleteProperty(document, 'visibilityState')
  })

  it('runs the task once per interval, the first one an interval after mounting', async () => {
    const task = vi.fn(async () => {})
    const { wrapper } = await mountPolling(task)
    expect(task).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1)
    expect(task).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(2 * INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(3)
    wrapper.unmount()
  })

  it('never runs two at once: the next run waits an interval after the slow one answered', async () => {
    const { task, finish } = slowTask()
    const { wrapper, refreshNow } = await mountPolling(task)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS)
    await refreshNow()
    expect(task).toHaveBeenCalledTimes(1)

    finish()
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1)
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(task).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })

  it('goes on after a task that failed', async () => {
    const task = vi.fn(async () => {
      throw new Error('network down')
    })
    const { wrapper } = await mountPolling(task)
    await vi.advanceTimersByTimeAsync(3 * INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(3)
    wrapper.unmount()
  })

  it('refreshNow runs at once and starts the interval again from there', async () => {
    const task = vi.fn(async () => {})
    const { wrapper, refreshNow } = await mountPolling(task)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS / 2)
    await refreshNow()
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1)
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(task).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })

  it('waits while disabled, and runs at once when enabled again', async () => {
    const task = vi.fn(async () => {})
    const { wrapper, enabled } = await mountPolling(task, ref(false))
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS)
    expect(task).not.toHaveBeenCalled()

    enabled.value = true
    await nextTick()
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(2)

    enabled.value = false
    await nextTick()
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })

  it('costs nothing while the tab is hidden, and refreshes at once when it is shown again', async () => {
    const task = vi.fn(async () => {})
    const { wrapper } = await mountPolling(task)
    setVisibility('hidden')
    await nextTick()
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS)
    expect(task).not.toHaveBeenCalled()

    setVisibility('visible')
    await nextTick()
    expect(task).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })

  it('stops for good when its component goes away, even with a run in flight', async () => {
    const { task, finish } = slowTask()
    const { wrapper, refreshNow } = await mountPolling(task)
    await vi.advanceTimersByTimeAsync(INTERVAL_MS)
    expect(task).toHaveBeenCalledTimes(1)
    wrapper.unmount()
    finish()
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS)
    await refreshNow()
    expect(task).toHaveBeenCalledTimes(1)
  })
})
