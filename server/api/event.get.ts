import { emptyQuerySchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, emptyQuerySchema)
  // The cover is an upload: its approval or images change this answer too.
  const tag = dataTag({ answer: 'event', versions: await readDataVersions(), dependsOn: ['event', 'public'] })
  if (notModified(event, tag, 'public')) return null
  return toPublicEventInfo(await getEventSettings())
})
