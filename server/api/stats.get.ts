import { statsQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, statsQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  await requireGalleryAccess(event, settings)
  const tag = dataTag({ answer: 'stats', versions, dependsOn: ['public'], query: galleryTagInputs(settings) })
  if (notModified(event, tag, 'public')) return null
  return publicStats()
})
