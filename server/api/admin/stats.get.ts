export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const tag = dataTag({ answer: 'admin-stats', versions: await readDataVersions(), dependsOn: ['uploads', 'guestbook', 'comments'] })
  if (notModified(event, tag, 'admin')) return null
  const [uploads, messages, comments] = await Promise.all([adminStats(), guestbookCounts(), commentCounts()])
  return { ...uploads, messages, comments }
})
