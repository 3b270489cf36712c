export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  await sendExportZip(event)
})
