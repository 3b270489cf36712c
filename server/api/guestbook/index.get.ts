import { galleryQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  await requireGuestbookAccess(event)
  const query = await readQueryAs(event, galleryQuerySchema)
  // Written messages move `guestbook`; spoken ones are uploads, which move `public` when approved.
  const tag = dataTag({ answer: 'guestbook', versions: await readDataVersions(), dependsOn: ['guestbook', 'public'], query })
  if (notModified(event, tag, 'public')) return null
  return encodeJsonAnswer(event, await cachedGuestbookPage(event, query, tag))
})
