import type { H3Event } from 'h3'

/** What a second request for the book is told to wait (`retry-after`), in seconds: about what a wedding's book (a few hundred messages) takes to set, many times over. */
export const BOOK_RETRY_AFTER_SECONDS = 10

let building = false

/**
 * Runs `build` as the server's one book in the making, or answers 429 RATE_LIMITED with
 * `retry-after` while another is: each book is typeset on the event loop that serves the guests,
 * so a few impatient clicks would share it between several builds of the same file.
 */
export async function oneBookAtATime(event: H3Event, build: () => Promise<void>): Promise<void> {
  if (building) {
    setResponseHeader(event, 'retry-after', BOOK_RETRY_AFTER_SECONDS)
    throw rateLimited(BOOK_RETRY_AFTER_SECONDS)
  }
  building = true
  try {
    await build()
  }
  finally {
    building = false
  }
}
