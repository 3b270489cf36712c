export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  return toAdminEventConfig(await updateEventSettings({ coverUploadId: null }))
})
