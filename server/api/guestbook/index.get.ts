import { galleryQuerySchema } from '#shared/schemas/gallery'
import { eventSettingsAt, galleryTagInputs } from '../../utils/gallery-access/access'
import { requireGuestbookAccess } from '../../utils/guestbook/access'

export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, galleryQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  // Access first, as the gallery's: a closed gallery answers 403 before any tag is compared, and the
  // tag covers who may see it, so no client keeps an answer across a change of mode or PIN.
  await requireGuestbookAccess(event, settings)
  // Written messages move `guestbook`; spoken ones are uploads, which move `public` when approved.
  const tagQuery = { cursor: query.cursor, limit: query.limit, ...galleryTagInputs(settings) }
  const tag = dataTag({ answer: 'guestbook', versions, dependsOn: ['guestbook', 'public'], query: tagQuery })
  if (notModified(event, tag, 'public')) return null
  return encodeJsonAnswer(event, await cachedGuestbookPage(event, query, tag))
})
