export default defineEventHandler(async (event) => {
  const { email } = await requireAdmin(event)
  return { email }
})
