import { adminGuestbookQuerySchema } from '#shared/schemas/guestbook'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = await readQueryAs(event, adminGuestbookQuerySchema)
  // Spoken messages are uploads (`uploads`); written ones move `guestbook`.
  const tag = dataTag({ answer: 'admin-guestbook', versions: await readDataVersions(), dependsOn: ['guestbook', 'uploads'], query })
  if (notModified(event, tag, 'admin')) return null
  return listAdminGuestbook(query)
})
