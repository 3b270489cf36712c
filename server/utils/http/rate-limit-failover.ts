import { memoryBucketStore, type BucketStore, type RedisBucketStore } from './rate-limit-stores'

/** What `/api/health` says of the counters: kept in memory, shared in Redis, or Redis not answering. */
export type RateLimitStoreState = 'memory' | 'ok' | 'unavailable'

/** A bucket store that can say whether its shared store answers right now. */
export interface CheckedBucketStore extends BucketStore {
  state: () => Promise<RateLimitStoreState>
}

/**
 * How long a take may wait for Redis. A limiter sits in front of login, init, confirm and the QR
 * code: a Redis that does not answer must cost those requests at most this, never a hang.
 */
export const SHARED_STORE_DEADLINE_MS = 500
/** While on local counters, how often Redis is asked whether it is back. */
const PROBE_EVERY_MS = 1000

class DeadlineError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
  }
}

/**
 * `work`, or a rejection once `ms` have passed. The rejection waits one more turn of the event
 * loop (setImmediate runs after the poll phase that reads sockets): when this process itself was
 * busy past the deadline (a burst of QR cards), Redis's answer may already be waiting in the
 * socket, and it wins, instead of counting a busy process as a dead Redis.
 */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new DeadlineError(ms))), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/**
 * Redis's counters while Redis answers, this process's own while it does not. A venue whose Redis
 * dies must still let guests send photos and the admin log in: each instance then limits on its
 * own (a client spread over N instances gets up to N times the budget until Redis is back), which
 * is what a single instance does anyway. One log line when it switches, one when it comes back.
 */
export function failoverBucketStore(shared: RedisBucketStore, local: BucketStore = memoryBucketStore()): CheckedBucketStore {
  let usingShared = true
  let everReady = false
  let lastError = ''
  let probe: ReturnType<typeof setInterval> | undefined

  function useLocal(reason: string) {
    if (!usingShared) return
    usingShared = false
    console.warn(`[rate-limit] Redis is unavailable (${reason}): counting in this process's memory until it answers again`)
    probe = setInterval(() => void ping().then(up => up && useShared()), PROBE_EVERY_MS)
    probe.unref?.()
  }

  function useShared() {
    if (usingShared) return
    usingShared = true
    clearInterval(probe)
    console.warn('[rate-limit] Redis answers again: counters are shared again')
  }

  // ioredis reports each failed reconnection here; without a listener it would print every one.
  shared.client.on('error', (error: Error) => {
    lastError = error.message
  })
  shared.client.on('ready', () => {
    everReady = true
    useShared()
  })
  shared.client.on('close', () => {
    if (everReady) useLocal(lastError || 'connection closed')
  })

  async function ping(): Promise<boolean> {
    // Before the first connection the PING waits in the client's queue (within the deadline).
    if (everReady && shared.client.status !== 'ready') return false
    return withinDeadline(shared.client.ping(), SHARED_STORE_DEADLINE_MS).then(() => true, () => false)
  }

  let checking: Promise<void> | undefined
  /**
   * A take that timed out says little alone (this process may have been too busy to read the
   * answer): a PING decides whether every take moves to local counters.
   */
  function checkAfterTimeout(reason: string) {
    checking ??= ping().then((up) => {
      if (!up) useLocal(reason)
    }).finally(() => {
      checking = undefined
    })
  }

  /** Runs a step on Redis, or on local counters when Redis is down or does not answer in time. */
  async function run<T>(step: (store: BucketStore) => Promise<T>): Promise<T> {
    // Before the first connection the client queues commands; afterwards a closed client is down.
    if (usingShared && (shared.client.status === 'ready' || !everReady)) {
      try {
        return await withinDeadline(step(shared), SHARED_STORE_DEADLINE_MS)
      }
      catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        if (error instanceof DeadlineError && shared.client.status === 'ready') checkAfterTimeout(reason)
        else useLocal(reason)
      }
    }
    else useLocal(lastError || `connection ${shared.client.status}`)
    return step(local)
  }

  return {
    take: buckets => run(store => store.take(buckets)),
    giveBack: buckets => run(store => store.giveBack(buckets)),
    enter: (window, entry) => run(store => store.enter(window, entry)),
    leave: (window, entry) => run(store => store.leave(window, entry)),
    use: window => run(store => store.use(window)),
    async state() {
      if (await ping()) {
        useShared()
        return 'ok'
      }
      if (usingShared && everReady) useLocal(lastError || 'no answer to PING')
      return 'unavailable'
    },
  }
}
