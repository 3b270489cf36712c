import { adminCommentsQuerySchema } from '#shared/schemas/reactions'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = await readQueryAs(event, adminCommentsQuerySchema)
  const tag = dataTag({ answer: 'admin-comments', versions: await readDataVersions(), dependsOn: ['comments'], query })
  if (notModified(event, tag, 'admin')) return null
  return listAdminComments(query)
})
