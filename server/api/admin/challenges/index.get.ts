export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const tag = dataTag({ answer: 'admin-challenges', versions: await readDataVersions(), dependsOn: ['challenges'] })
  if (notModified(event, tag, 'admin')) return null
  return listChallenges()
})
