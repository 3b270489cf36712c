import { z } from './zod'
import { CHALLENGE_TEXT_MAX_LENGTH } from '#shared/limits'
import { guestText } from '#shared/schemas/common'

const challengeText = guestText(CHALLENGE_TEXT_MAX_LENGTH, 1)

export const challengeCreateSchema = z.strictObject({
  text: challengeText,
})

export const challengePatchSchema = z.strictObject({
  text: challengeText,
  /** Switched off: hidden from guests and refused at init; its answers stay. */
  active: z.boolean(),
}).partial()

export type ChallengeCreate = z.output<typeof challengeCreateSchema>
export type ChallengePatch = z.output<typeof challengePatchSchema>

/** A challenge as the admin edits it. */
export interface AdminChallenge {
  id: string
  text: string
  position: number
  active: boolean
}

export interface AdminChallengeList { items: AdminChallenge[] }

/**
 * GET /api/challenges: the active prompts in the couple's order, public (guests see them while the
 * gallery is closed); `count` of approved answers only for a client the gallery is open to.
 */
export interface PublicChallenge { id: string, text: string, count?: number }
export interface PublicChallengeList { items: PublicChallenge[] }
