import { describe, expect, it } from 'vitest'
import { summarize } from '../../upload-client/summary'
import { formatBytesOf } from '../../shared/messages/format.pt-BR'

const MB = 1024 * 1024
type Row = Parameters<typeof summarize>[0][number]
const row = (phase: Row['phase'], size: number, sentBytes = 0): Row => ({ phase, size, sentBytes, done: phase === 'done' })

describe('upload summary', () => {
  it('counts finished files and bytes of the files sent, leaving out those still waiting for the button', () => {
    const summary = summarize([row('done', 5 * MB, 5 * MB), row('sending', 5 * MB, 2 * MB), row('queued', 10 * MB), row('waiting', 50 * MB)], true)
    expect(summary).toEqual({ state: 'sending', done: 1, total: 3, failed: 0, sentBytes: 7 * MB, totalBytes: 20 * MB, percent: 35 })
  })

  it('is paused while offline, or when a file waits for the network', () => {
    expect(summarize([row('sending', MB, MB / 2)], false).state).toBe('paused')
    expect(summarize([row('paused', MB, MB / 2), row('sending', MB)], true).state).toBe('paused')
  })

  it('shows 100 only when every file is finished, not when every byte is merely handed over', () => {
    expect(summarize([row('done', MB, MB), row('finishing', MB, MB)], true).percent).toBe(99)
    expect(summarize([row('done', MB, MB), row('done', MB, 0)], true)).toMatchObject({ state: 'done', done: 2, total: 2, percent: 100 })
  })

  it('says a batch stopped on errors once nothing is moving, and is idle with nothing sent', () => {
    expect(summarize([row('done', MB, MB), row('error', MB, 0)], true)).toMatchObject({ state: 'failed', done: 1, total: 2, failed: 1 })
    expect(summarize([row('waiting', MB)], true)).toMatchObject({ state: 'idle', total: 0, percent: 0 })
  })

  it('writes bytes sent of the total in the total\'s unit', () => {
    expect(formatBytesOf(12.34 * MB, 35 * MB)).toBe('12,3 de 35,0 MB')
    expect(formatBytesOf(0, 900 * 1024)).toBe('0,0 de 900,0 KB')
    expect(formatBytesOf(1.5 * 1024 * MB, 2 * 1024 * MB)).toBe('1,5 de 2,0 GB')
  })
})
