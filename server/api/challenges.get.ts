import { statsQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, statsQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  // The prompts are public, so guests see them while the gallery is closed; the counts say what
  // the gallery holds, so only a client it is open to gets them. Who gets which is in the tag.
  const withCounts = await seesGallery(event, settings)
  const tag = dataTag({ answer: 'challenges', versions, dependsOn: ['public', 'challenges'], query: { withCounts, ...galleryTagInputs(settings) } })
  if (notModified(event, tag, 'public')) return null
  return publicChallenges(withCounts)
})
