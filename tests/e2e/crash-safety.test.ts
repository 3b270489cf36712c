import { describe, expect, it } from 'vitest'
import { runCrashSafety } from '../support/crash'

// The short form for CI; `npm run crash-test` runs more rounds.
describe('crash safety', () => {
  it('after SIGKILLs at random moments: database intact, every confirmed upload kept with its bytes, no bulk half-applied, leftovers swept', async () => {
    // Five rounds: each lasts 0.4–1.6 s, and a confirm now also claims and moves its upload, so three
    // rounds on a loaded two-core machine could end with too few confirms to prove anything.
    const report = await runCrashSafety({ rounds: 5 })
    expect(report.confirmed).toBeGreaterThan(10)
    expect(report.batches).toBeGreaterThan(2)
    expect(report.integrity).toBe('ok')
    expect(report.missing).toEqual([])
    expect(report.halfApplied).toEqual([])
    expect(report.orphans).toEqual([])
    expect(report.unconfirmedLeft).toBe(0)
  }, 120_000)
})
