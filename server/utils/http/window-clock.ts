import { readFileSync } from 'node:fs'
import type { WindowClock } from './rate-limit-windows'

/**
 * The clock the sliding windows count by while TEST_CLOCK_FILE is set: the time (ms since the
 * epoch) written in that file, standing still until a test writes another, so an hour passes at
 * once and a `retry-after` is the same for every request made at one moment. A missing or empty
 * file is the real clock. Unset (always, outside tests): undefined, and the stores count by their
 * own clocks (this process's, or Redis's).
 */
export function testWindowClock(): WindowClock | undefined {
  const file = useConfig().TEST_CLOCK_FILE
  if (!file) return undefined
  return () => {
    try {
      return Number(readFileSync(file, 'utf8').trim()) || Date.now()
    }
    catch {
      return Date.now()
    }
  }
}
