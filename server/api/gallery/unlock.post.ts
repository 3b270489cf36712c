import { ErrorCode } from '#shared/errors'
import { galleryUnlockSchema } from '#shared/schemas/gallery'

/**
 * The gallery's PIN, given once per browser: 204 with the `em_gallery` cookie (and a guest device
 * cookie, which later PINs are counted by), or 403; 429 while the client's or the event's guesses
 * are spent, whatever was typed.
 */
export default defineEventHandler(async (event) => {
  const { pin } = await readBodyAs(event, galleryUnlockSchema)
  const { galleryPin } = await getEventSettings()
  if (galleryPin === null) {
    setResponseStatus(event, 204)
    return null
  }
  const guess = await takePinGuess(event)
  if (!pinMatches(pin, galleryPin)) throw apiError(403, ErrorCode.GALLERY_PIN_INVALID, 'Invalid PIN')
  await returnPinGuess(guess)
  setGalleryCookie(event, galleryPin)
  ensureGuestId(event)
  setResponseStatus(event, 204)
  return null
})
