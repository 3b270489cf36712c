import { emptyQuerySchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, emptyQuerySchema)
  const versions = await readDataVersions()
  const info = await toPublicEventInfo(await eventSettingsAt(versions))
  // The tag follows the settings and the cover the answer shows, nothing else: with the gallery
  // closed or behind a PIN, a tag that moved with every upload would tell anyone the party's
  // activity. The cover's images by their paths: the local driver's addresses name the origin the
  // request came to, which changes no cover (and instances behind one balancer must agree).
  const cover = info.cover && [info.cover.id, ...[info.cover.url, info.cover.thumbUrl, info.cover.thumb2xUrl].map(url => url && new URL(url, 'http://cover.invalid').pathname)]
  const tag = dataTag({ answer: 'event', versions, dependsOn: ['event'], query: { cover } })
  if (notModified(event, tag, 'public')) return null
  return info
})
