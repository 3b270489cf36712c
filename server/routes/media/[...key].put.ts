import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pipeline } from 'node:stream/promises'

/**
 * The local driver's stand-in for S3's presigned PUT: the body streams to a temporary file (never
 * held in memory), may not be longer than signed, and only a complete body is renamed into place.
 */
export default defineEventHandler(async (event) => {
  const key = mediaKeyOf(event)
  const query = getQuery(event)
  const length = Number(query.len)
  const uploadId = typeof query.upload === 'string' ? query.upload : undefined
  const partNumber = query.part === undefined ? undefined : Number(query.part)
  const contentType = uploadId ? undefined : (typeof query.ct === 'string' ? query.ct : '')
  assertGranted(event, { method: 'PUT', key, length, contentType, uploadId, partNumber })

  if (contentType !== undefined && getRequestHeader(event, 'content-type') !== contentType) {
    throw createError({ status: 403, statusMessage: 'Content type differs from the signed one', data: { code: 'INVALID_SIGNATURE' } })
  }
  const declared = getRequestHeader(event, 'content-length')
  if (declared !== undefined && Number(declared) > length) {
    throw createError({ status: 413, statusMessage: 'Body longer than signed', data: { code: 'BODY_TOO_LARGE', limit: length } })
  }

  const store = useLocalMediaStore()
  const target = uploadId
    ? store.pathOf(`.multipart/${uploadId.replace(/[^\w-]/g, '')}/${partNumber}`)
    : store.pathOf(key)
  if (uploadId && !(await stat(dirname(target)).catch(() => null))) {
    throw createError({ status: 404, statusMessage: 'No such upload', data: { code: 'NOT_FOUND' } })
  }
  await mkdir(dirname(target), { recursive: true })
  const tmp = `${target}.tmp-${randomBytes(6).toString('hex')}`
  let received = 0
  // Counts as it streams: one byte past the signed length and the write stops.
  async function* limited(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      received += chunk.length
      if (received > length) throw createError({ status: 413, statusMessage: 'Body longer than signed', data: { code: 'BODY_TOO_LARGE', limit: length } })
      yield chunk
    }
  }
  try {
    await pipeline(event.node.req, limited, createWriteStream(tmp, { highWaterMark: 1024 * 1024 }))
    if (received !== length) {
      throw createError({ status: 400, statusMessage: 'Body shorter than signed', data: { code: 'INCOMPLETE_BODY', expected: length, received } })
    }
    await rename(tmp, target)
  }
  catch (error) {
    await rm(tmp, { force: true })
    // Stop reading a body we refused; the client gets the answer instead of a hang.
    if (!event.node.req.complete) event.node.res.setHeader('connection', 'close')
    throw error
  }
  setResponseHeader(event, 'etag', `"${length}-${partNumber ?? 1}"`)
  // 200 with an empty body, as S3 answers a PUT.
  setResponseStatus(event, 200)
  return ''
})
