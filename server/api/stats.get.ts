export default defineEventHandler(async (event) => {
  const versions = await readDataVersions()
  await requireGalleryAccess(event, await eventSettingsAt(versions))
  const tag = dataTag({ answer: 'stats', versions, dependsOn: ['public', 'event'] })
  if (notModified(event, tag, 'public')) return null
  return publicStats()
})
