import { galleryListQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, galleryListQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  // Access first: a closed gallery answers 403 before any tag is compared, so no If-None-Match
  // (nor the answer cache) can stand in for it. The tag covers the mode, the PIN and the downloads
  // switch too, so a client never keeps an answer across a change of them.
  await requireGalleryAccess(event, settings)
  // The same page for the screen and for guests: one tag and one cached answer for both. Items
  // carry their hearts and comments, whose counter moves the tag at most once a second.
  const tagQuery = { cursor: query.cursor, limit: query.limit, moment: query.moment, challenge: query.challenge, ...galleryTagInputs(settings) }
  const tag = dataTag({ answer: 'gallery', versions: galleryVersions(versions), dependsOn: ['public', 'reactions'], query: tagQuery })
  if (notModified(event, tag, 'public')) return null
  return encodeJsonAnswer(event, await cachedGalleryPage(event, query, tag, settings.guestDownloads))
})
