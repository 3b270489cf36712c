import { emptyQuerySchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await readQueryAs(event, emptyQuerySchema)
  const versions = await readDataVersions()
  const settings = await eventSettingsAt(versions)
  const cover = await publicCoverOf(settings)
  // The tag follows the settings and the cover the answer shows, nothing else: with the gallery
  // closed or behind a PIN, a tag that moved with every upload would tell anyone the party's
  // activity. The cover's images by their paths: the local driver's addresses name the origin the
  // request came to, which changes no cover (and instances behind one balancer must agree).
  const coverPaths = cover && [cover.id, ...[cover.url, cover.thumbUrl, cover.thumb2xUrl].map(url => url && new URL(url, 'http://cover.invalid').pathname)]
  const tag = dataTag({ answer: 'event', versions, dependsOn: ['event'], query: { cover: coverPaths } })
  // Most polls end here: the answer itself is built only for a client that lacks it.
  if (notModified(event, tag, 'public')) return null
  return toPublicEventInfo(settings, cover)
})
