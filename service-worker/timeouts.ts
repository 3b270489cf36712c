import type { WorkboxPlugin } from 'workbox-core/types'

/**
 * Time limits for the worker's own fetches. A venue whose uplink dies while its Wi-Fi stays up (or
 * a captive portal) opens connections and never answers them: without a limit a fetch waits for
 * minutes, holds one of the browser's few connections to the host, and whatever waits on it (a
 * slide, a navigation) waits too.
 */

/**
 * Aborts a fetch that has no answer (status and headers) within `answerMs`, or whose body is not
 * all in within `wholeMs`: a slow but live network still brings a large image in.
 */
export function answerWithin(answerMs: number, wholeMs = answerMs): WorkboxPlugin {
  return {
    requestWillFetch: async ({ request, state }) => {
      const controller = new AbortController()
      const stop = () => controller.abort(new DOMException('No answer in time', 'TimeoutError'))
      if (state) {
        state.answerTimer = setTimeout(stop, answerMs)
        state.wholeTimer = setTimeout(stop, wholeMs)
      }
      // A navigation's request cannot be copied with a signal (its mode would change); the
      // navigation route limits its own wait (`withinMs`).
      if (request.mode === 'navigate') return request
      return new Request(request, { signal: controller.signal })
    },
    fetchDidSucceed: async ({ response, state }) => {
      clearTimeout(state?.answerTimer)
      // The whole-body limit stays until the body is read (by the cache or the page) or abandoned.
      return response
    },
    fetchDidFail: async ({ state }) => {
      clearTimeout(state?.answerTimer)
      clearTimeout(state?.wholeTimer)
    },
    handlerDidComplete: async ({ state }) => {
      clearTimeout(state?.wholeTimer)
    },
  }
}

/** `work`'s answer, or a rejection after `ms`: what the caller does then (a cached copy) is its own. */
export function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('No answer in time', 'TimeoutError')), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}
