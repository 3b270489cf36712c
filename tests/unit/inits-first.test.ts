import { EventEmitter } from 'node:events'
import type { H3Event } from 'h3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { afterInitsAnswered, answeringInit, PUT_WAITS_AT_MOST_MS } from '../../server/utils/uploads/inits-first'

// The gate between inits being answered and local PUTs reading their bodies. An init is counted
// until its response closes, so the event here is the one part of h3's event the gate reads: a
// response that emits 'close' (the real server's ordering is measured in bench/burst.ts).
function initRequest() {
  const res = new EventEmitter()
  answeringInit({ node: { res } } as unknown as H3Event)
  return { answered: () => res.emit('close') }
}

/** Whether the promise has settled after the pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false
  void promise.then(() => {
    done = true
  })
  await vi.advanceTimersByTimeAsync(0)
  return done
}

describe('local PUTs after the inits being answered', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('lets a PUT through at once when no init is being answered', async () => {
    vi.useFakeTimers()
    expect(await settled(afterInitsAnswered())).toBe(true)
  })

  it('holds a PUT until every init being answered has its response, then lets all waiting PUTs through', async () => {
    vi.useFakeTimers()
    const first = initRequest()
    const second = initRequest()
    const puts = [afterInitsAnswered(), afterInitsAnswered()]
    expect(await settled(puts[0]!)).toBe(false)
    first.answered()
    expect(await settled(puts[0]!)).toBe(false)
    expect(await settled(puts[1]!)).toBe(false)
    second.answered()
    expect(await settled(puts[0]!)).toBe(true)
    expect(await settled(puts[1]!)).toBe(true)
    // Nothing left counted: the next PUT goes at once.
    expect(await settled(afterInitsAnswered())).toBe(true)
  })

  it('holds a PUT at most PUT_WAITS_AT_MOST_MS while inits keep coming', async () => {
    vi.useFakeTimers()
    const init = initRequest()
    const put = afterInitsAnswered()
    await vi.advanceTimersByTimeAsync(PUT_WAITS_AT_MOST_MS - 1)
    expect(await settled(put)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await settled(put)).toBe(true)
    init.answered()
    expect(await settled(afterInitsAnswered())).toBe(true)
  })

  it('counts a response that closes twice once', async () => {
    vi.useFakeTimers()
    const res = new EventEmitter()
    answeringInit({ node: { res } } as unknown as H3Event)
    const other = initRequest()
    res.emit('close')
    res.emit('close')
    // `once`: the second close does not count the other init as answered.
    expect(await settled(afterInitsAnswered())).toBe(false)
    other.answered()
    expect(await settled(afterInitsAnswered())).toBe(true)
  })
})
