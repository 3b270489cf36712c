import { qrcodeQuerySchema } from '#shared/schemas/qrcode'

export default defineEventHandler(async (event) => {
  // Rendering a card costs CPU: a script may not loop on it.
  await consumeToken(event, 'qrcode', clientKey(event), QR_RULE)
  const { format, url, lang } = await readQueryAs(event, qrcodeQuerySchema)
  const target = withLanguage(await resolveQrTarget(event, url), lang)
  const settings = await getEventSettings()
  const request = describeQrCode(format, target, settings, lang)
  const fileName = qrFileName(format, settings.coupleNames, lang)

  const etag = qrEtag(request, fileName)
  setResponseHeaders(event, { 'etag': etag, 'cache-control': qrCacheControl(format) })
  if (matchesIfNoneMatch(getRequestHeader(event, 'if-none-match'), etag)) return sendNoContent(event, 304)

  const { headers, body } = await renderQrCode(request, fileName)
  // Chrome's PDF viewer is a plugin that the API's restrictive policy would block.
  if (format === 'pdf') removeResponseHeader(event, 'content-security-policy')
  setResponseHeaders(event, headers)
  return body
})
