/** The couple's printed book of messages (A5 PDF), one in the making at a time. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  await oneBookAtATime(event, () => sendGuestbookPdf(event))
})
