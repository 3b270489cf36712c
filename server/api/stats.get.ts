export default defineEventHandler(async (event) => {
  const tag = dataTag({ answer: 'stats', versions: await readDataVersions(), dependsOn: ['public'] })
  if (notModified(event, tag, 'public')) return null
  return publicStats()
})
