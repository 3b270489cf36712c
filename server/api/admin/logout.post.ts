export default defineEventHandler(async (event) => {
  const session = await getAdminSession(event)
  if (session) await revokeSession(session)
  clearSessionCookie(event)
  return { ok: true }
})
