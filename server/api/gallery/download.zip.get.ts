/** Every approved item's public file in one ZIP, when the couple allows guests' downloads. */
export default defineEventHandler(async (event) => {
  const settings = await requireGuestDownloads(event)
  await consumeToken(event, 'gallery-zip', clientKey(event), GALLERY_ZIP_RULE)
  await useMediaStore().ping() // storage down: an ordinary 503 before any byte is sent
  await sendGalleryZip(event, settings.coupleNames)
})
