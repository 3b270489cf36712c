/**
 * The local driver's stand-in for S3's presigned PUT (the driver's `receive` does the work): only
 * what the URL's signature grants, and only a complete body is stored.
 */
export default defineEventHandler(async (event) => {
  const grant = assertGranted(event, 'PUT', mediaKeyOf(event))
  const etag = await useLocalMediaStore().receive(grant, event)
  setResponseHeader(event, 'etag', etag)
  // 200 with an empty body, as S3 answers a PUT.
  setResponseStatus(event, 200)
  return ''
})
