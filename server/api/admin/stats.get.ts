export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const tag = dataTag({ answer: 'admin-stats', versions: await readDataVersions(), dependsOn: ['uploads', 'guestbook'] })
  if (notModified(event, tag, 'admin')) return null
  const [uploads, messages] = await Promise.all([adminStats(), guestbookCounts()])
  return { ...uploads, messages }
})
