import type { H3Event } from 'h3'

/*
 * In a burst (a room of phones sending at the toast), the answers a guest's screen waits on come
 * before the bytes the local driver writes. An init is cheap and its row appears only with its
 * answer; a local PUT's work (streaming the body to disk) can wait a moment, as its bytes would
 * simply arrive a little later over the venue's Wi-Fi, and with S3 they never pass here at all.
 * Interleaved, 300 guests' inits waited behind the PUTs of the guests answered first (init p95
 * 2.0–2.5 s on an idle machine); with the PUTs waiting, ~1 s (bench/RESULTS.md, "A 300-guest burst").
 * Only the init's own work counts (after the Turnstile check, a remote wait that uses no CPU here),
 * and a PUT waits at most PUT_WAITS_AT_MOST_MS: a steady stream of inits cannot hold the bytes back.
 */
export const PUT_WAITS_AT_MOST_MS = 1000

let initsAnswering = 0
let waitingPuts: (() => void)[] = []

/** Counts the init as being answered until its response has gone (or the client left). */
export function answeringInit(event: H3Event): void {
  initsAnswering++
  event.node.res.once('close', () => {
    if (--initsAnswering > 0) return
    const go = waitingPuts
    waitingPuts = []
    for (const put of go) put()
  })
}

/** Resolves once no init is being answered, or after PUT_WAITS_AT_MOST_MS. */
export function afterInitsAnswered(): Promise<void> {
  if (initsAnswering === 0) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, PUT_WAITS_AT_MOST_MS)
    waitingPuts.push(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
