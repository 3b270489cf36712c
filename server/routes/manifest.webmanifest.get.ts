import { z } from 'zod'
import { singleQuery } from '#shared/schemas/common'

const manifestQuerySchema = z.strictObject({
  /** `?tela=1`: the venue screen's own manifest, linked from the slideshow. */
  tela: singleQuery(z.literal('1')).optional(),
})

/** The web app manifest, named after the event: read at every request, so a renamed event shows. */
export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, manifestQuerySchema)
  // Outside /api, so the API middleware has not made the database ready for it.
  await dbReadyForRequest()
  const { coupleNames, language } = await getEventSettings()
  setResponseHeader(event, 'content-type', 'application/manifest+json; charset=utf-8')
  setResponseHeader(event, 'cache-control', 'no-cache')
  return query.tela ? slideshowManifest(coupleNames, language) : webAppManifest(coupleNames, language)
})
