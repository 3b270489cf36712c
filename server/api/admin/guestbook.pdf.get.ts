/** The couple's printed book of messages (A5 PDF). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const settings = await getEventSettings()
  const pdf = await renderGuestbookPdf(settings, await loadCardFonts())
  // Chrome's PDF viewer is a plugin that the API's restrictive policy would block.
  removeResponseHeader(event, 'content-security-policy')
  setResponseHeaders(event, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${BOOK_WORDS[settings.language].fileName}"`,
    'cache-control': 'private, no-store',
  })
  return pdf
})
