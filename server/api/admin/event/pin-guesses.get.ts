/** The event's wrong gallery PINs in the last hour and whether the budget is spent (docs/api.md, "A PIN"). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  return pinGuessesLastHour()
})
