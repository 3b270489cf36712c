import { galleryQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, galleryQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  // Access first: a closed gallery answers 403 before any tag is compared, so no If-None-Match
  // (nor the answer cache) can stand in for it. The mode, the PIN and the downloads switch live in
  // the settings row, so the tag follows its counter too.
  await requireGalleryAccess(event, settings)
  // The same page for the screen and for guests: one tag and one cached answer for both.
  const tag = dataTag({ answer: 'gallery', versions, dependsOn: ['public', 'event'], query: { cursor: query.cursor, limit: query.limit } })
  if (notModified(event, tag, 'public')) return null
  return encodeJsonAnswer(event, await cachedGalleryPage(event, query, tag, settings.guestDownloads))
})
