import { galleryQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, galleryQuerySchema)
  const tag = dataTag({ answer: 'gallery', versions: await readDataVersions(), dependsOn: ['public'], query })
  if (notModified(event, tag, 'public')) return null
  return encodeJsonAnswer(event, await cachedGalleryPage(event, query, tag))
})
