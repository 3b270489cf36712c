/** The VAPID public key a browser subscribes with (applicationServerKey). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { publicKey } = await vapidKeys()
  return { publicKey }
})
