import { idParamsSchema } from '#shared/schemas/common'
import { emptyBodySchema } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'

/** A guest's undo of a written message: the sending device, within the window, with its token. */
export default defineEventHandler(async (event) => {
  await limitGuestbook(event, 'undo')
  const { id } = await readParamsAs(event, idParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  return undoGuestbookMessage(id, getHeader(event, UNDO_TOKEN_HEADER))
})
