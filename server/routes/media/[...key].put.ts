/**
 * The local driver's stand-in for S3's presigned PUT (the driver's `receive` does the work): only
 * what the URL's signature grants, only while its upload is open, and only a complete body is
 * stored.
 */
export default defineEventHandler(async (event) => {
  deferDerivationsWhileAnswering(event)
  const grant = assertGranted(event, 'PUT', uploadKeyOf(event))
  // The body is read after the inits being answered (inits-first.ts), at most a second later.
  await afterInitsAnswered()
  await assertUploadOpen(grant.key).catch((error) => {
    // The body is left unread: close rather than leave the connection mid-request.
    setResponseHeader(event, 'connection', 'close')
    throw error
  })
  const etag = await useLocalMediaStore().receive(grant, event)
  setResponseHeader(event, 'etag', etag)
  // 200 with an empty body, as S3 answers a PUT.
  setResponseStatus(event, 200)
  return ''
})
