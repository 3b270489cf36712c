/**
 * The gallery PIN's guesses for the whole event (docs/api.md, "A PIN"): the budget the server
 * keeps, and when the admin's Event tab speaks of it.
 */
export const GALLERY_PIN_BUDGET = {
  /** Wrong PINs checked in any sliding hour, from every address together. */
  perHour: 200,
  /**
   * From this many wrong PINs in the hour the Event tab says the budget is being spent: more than
   * a party's mistyping, less than a script needs to be noticed before it empties the budget.
   */
  noticeFrom: 50,
} as const

/** The PIN length the Event tab suggests while the budget is being spent: 100 times the guesses of 4 digits. */
export const SUGGESTED_PIN_LENGTH = 6

/** `GET /api/admin/event/pin-guesses`. */
export interface PinGuessUse {
  /** Wrong PINs checked in the last hour, event-wide. */
  wrongLastHour: number
  /** The budget: at most this many in any sliding hour. */
  perHour: number
  /** While the budget is spent: when the next guess will be checked (ISO 8601, UTC); else null. */
  spentUntil: string | null
}

export type PinGuessNotice
  = | { state: 'quiet' }
    | { state: 'spending' | 'spent', wrongLastHour: number, perHour: number, spentUntil: string | null, suggestLonger: boolean }

/**
 * What the Event tab says of the guesses: nothing while they look like mistyping (or no PIN is
 * set), else how many, until when new guests are refused, and whether a longer PIN would help.
 */
export function pinGuessNoticeOf(use: PinGuessUse | null, pin: string | null): PinGuessNotice {
  if (!use || pin === null) return { state: 'quiet' }
  const spent = use.spentUntil !== null
  if (!spent && use.wrongLastHour < GALLERY_PIN_BUDGET.noticeFrom) return { state: 'quiet' }
  return {
    state: spent ? 'spent' : 'spending',
    wrongLastHour: use.wrongLastHour,
    perHour: use.perHour,
    spentUntil: use.spentUntil,
    suggestLonger: pin.length < SUGGESTED_PIN_LENGTH,
  }
}
