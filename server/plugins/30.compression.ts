/**
 * Compresses the JSON answers of /api on the Node server (see `compressesAnswers`): the body a
 * handler returns is encoded here, once, instead of by h3. Buffers (answers already encoded, as
 * the gallery's), streams, 304s and errors are left alone; media never pass through /api.
 */
export default defineNitroPlugin((nitroApp) => {
  if (!compressesAnswers()) return
  nitroApp.hooks.hook('beforeResponse', async (event, response) => {
    if (!event.path.startsWith('/api/') || event.node.res.statusCode !== 200) return
    const body = response.body
    if (body === null || body === undefined || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Uint8Array
      || typeof (body as { pipe?: unknown }).pipe === 'function' || body instanceof Response || body instanceof Error) return
    response.body = await encodeJsonAnswer(event, Buffer.from(JSON.stringify(body)))
  })
})
