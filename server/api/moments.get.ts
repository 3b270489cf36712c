import { statsQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, statsQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  // Behind the gallery's gate, as the stats: the counts say what the gallery holds.
  await requireGalleryAccess(event, settings)
  const tag = dataTag({ answer: 'moments', versions, dependsOn: ['public', 'moments'], query: galleryTagInputs(settings) })
  if (notModified(event, tag, 'public')) return null
  return publicMoments()
})
