export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const tag = dataTag({ answer: 'admin-stats', versions: await readDataVersions(), dependsOn: ['uploads'] })
  if (notModified(event, tag, 'admin')) return null
  return adminStats()
})
