export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const tag = dataTag({ answer: 'admin-moments', versions: await readDataVersions(), dependsOn: ['moments'] })
  if (notModified(event, tag, 'admin')) return null
  return listMoments()
})
