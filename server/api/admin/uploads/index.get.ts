import { adminUploadsQuerySchema } from '#shared/schemas/admin'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = await readQueryAs(event, adminUploadsQuerySchema)
  // `isCover` comes from the event settings, the counts of hearts and comments from `reactions`;
  // the originals' URLs are signed, for this long.
  const tag = dataTag({ answer: 'admin-uploads', versions: await readDataVersions(), dependsOn: ['uploads', 'event', 'reactions'], query, signedUrlTtlSeconds: ORIGINAL_URL_TTL_SECONDS })
  if (notModified(event, tag, 'admin')) return null
  return encodeJsonAnswer(event, await cachedAdminUploads(event, query, tag))
})
