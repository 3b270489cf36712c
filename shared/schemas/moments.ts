import { z } from './zod'
import { MOMENT_NAME_MAX_LENGTH } from '#shared/limits'
import { guestText } from '#shared/schemas/common'

/** A bound of a moment's window: an instant with its offset (or Z), null for an open side. */
const windowBound = z.iso.datetime({ offset: true }).nullable()

const momentName = guestText(MOMENT_NAME_MAX_LENGTH, 1)

/** Both bounds given: the window must end after it starts (a PATCH checks the merged result). */
export function windowIsOrdered(startsAt: string | null | undefined, endsAt: string | null | undefined): boolean {
  return !startsAt || !endsAt || Date.parse(endsAt) > Date.parse(startsAt)
}

const ORDER_MESSAGE = 'endsAt must be after startsAt'

export const momentCreateSchema = z.strictObject({
  name: momentName,
  startsAt: windowBound.optional(),
  endsAt: windowBound.optional(),
}).refine(body => windowIsOrdered(body.startsAt, body.endsAt), { message: ORDER_MESSAGE, path: ['endsAt'] })

export const momentPatchSchema = z.strictObject({
  name: momentName,
  startsAt: windowBound,
  endsAt: windowBound,
}).partial()

export type MomentCreate = z.output<typeof momentCreateSchema>
export type MomentPatch = z.output<typeof momentPatchSchema>

/** A moment as the admin edits it. */
export interface AdminMoment {
  id: string
  name: string
  startsAt: string | null
  endsAt: string | null
  position: number
}

export interface AdminMomentList { items: AdminMoment[] }

/** GET /api/moments: the couple's order; `count` of approved photos and videos in each. */
export interface PublicMoment { id: string, name: string, count: number }
export interface PublicMomentList { items: PublicMoment[] }
