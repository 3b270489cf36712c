import { ErrorCode } from '#shared/errors'
import { galleryUnlockSchema } from '#shared/schemas/gallery'

/** The gallery's PIN, given once per browser: 204 and the `em_gallery` cookie, or 403. */
export default defineEventHandler(async (event) => {
  const { pin } = await readBodyAs(event, galleryUnlockSchema)
  const { galleryPin } = await getEventSettings()
  if (galleryPin === null) {
    setResponseStatus(event, 204)
    return null
  }
  // Taken before the PIN is compared, as for logins: a burst gets no more guesses than the limit.
  const buckets = pinBuckets(event)
  await takeTokens(event, buckets)
  if (!pinMatches(pin, galleryPin)) throw apiError(403, ErrorCode.GALLERY_PIN_INVALID, 'Invalid PIN')
  await returnTokens(buckets)
  setGalleryCookie(event, galleryPin)
  setResponseStatus(event, 204)
  return null
})
