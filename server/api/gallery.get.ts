import { galleryQuerySchema } from '#shared/schemas/gallery'

export default defineEventHandler(async (event) => {
  const query = await readQueryAs(event, galleryQuerySchema)
  return listGallery(query)
})
