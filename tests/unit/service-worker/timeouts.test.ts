import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerWithin, withinMs } from '../../../service-worker/timeouts'

/** Calls one of a Workbox plugin's callbacks as a strategy would (they are all optional in its type). */
async function call(plugin: ReturnType<typeof answerWithin>, name: 'requestWillFetch' | 'fetchDidSucceed' | 'fetchDidFail' | 'handlerDidComplete', param: object) {
  const callback = plugin[name] as ((param: object) => Promise<unknown>) | undefined
  return callback!(param)
}

describe('the service worker\'s time limits', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('abandons a fetch with no answer after its limit', async () => {
    const plugin = answerWithin(5000, 45_000)
    const state = {}
    const request = await call(plugin, 'requestWillFetch', { request: new Request('http://venue/media/x.jpg'), state }) as Request
    vi.advanceTimersByTime(4999)
    expect(request.signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(request.signal.aborted).toBe(true)
    expect((request.signal.reason as DOMException).name).toBe('TimeoutError')
  })

  it('lets an answer that began in time bring its body in, up to the whole limit', async () => {
    const plugin = answerWithin(5000, 45_000)
    const state = {}
    const request = await call(plugin, 'requestWillFetch', { request: new Request('http://venue/media/x.jpg'), state }) as Request
    vi.advanceTimersByTime(1000)
    await call(plugin, 'fetchDidSucceed', { request, response: new Response('x'), state })
    vi.advanceTimersByTime(43_999)
    expect(request.signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(request.signal.aborted).toBe(true)
  })

  it('lets go of its timers once the strategy is done', async () => {
    const plugin = answerWithin(5000, 45_000)
    const state = {}
    const request = await call(plugin, 'requestWillFetch', { request: new Request('http://venue/api/gallery'), state }) as Request
    await call(plugin, 'fetchDidSucceed', { request, response: new Response('{}'), state })
    await call(plugin, 'handlerDidComplete', { request, state })
    vi.advanceTimersByTime(60_000)
    expect(request.signal.aborted).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('answers in time, or rejects at the limit', async () => {
    await expect(withinMs(Promise.resolve('page'), 4000)).resolves.toBe('page')
    const hanging = withinMs(new Promise(() => undefined), 4000)
    const outcome = expect(hanging).rejects.toMatchObject({ name: 'TimeoutError' })
    vi.advanceTimersByTime(4000)
    await outcome
    expect(vi.getTimerCount()).toBe(0)
  })
})
