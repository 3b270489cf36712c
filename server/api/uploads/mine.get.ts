import { mineQuerySchema } from '#shared/schemas/mine'

/** This guest device's uploads (by its `em_guest` cookie), whatever the gallery's mode. */
export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, mineQuerySchema)
  // Each device's own answer: no shared cache may keep it.
  setResponseHeader(event, 'cache-control', 'private, no-store')
  // /enviar asks this when it opens: the device gets its cookie before its first files, which
  // otherwise go as parallel inits that would each name a new device.
  return listMyUploads(ensureGuestId(event), query)
})
