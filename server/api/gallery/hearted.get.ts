/**
 * Which pictures this device hearted: its own answer, private and never stored by a cache, so the
 * gallery's page stays one shared answer for every poller.
 */
export default defineEventHandler(async (event) => {
  await requireGalleryAccess(event)
  setResponseHeader(event, 'cache-control', 'private, no-store')
  return heartedBy(guestIdOf(event))
})
