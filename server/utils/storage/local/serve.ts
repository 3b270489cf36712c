import send from 'send'
import type { ServerResponse } from 'node:http'
import type { H3Event } from 'h3'

/**
 * Local storage downloads: Range (206) for Safari's video player, long-lived caching (keys are
 * never reused), and a content type from the key's own extension, never sniffed and never HTML.
 * Photo originals (`orig/`) need a signed URL; everything else is public like a public bucket.
 * GET and HEAD both come here: `send` answers HEAD with the same headers and no body, as S3 does.
 */
export async function serveLocalMedia(event: H3Event): Promise<void> {
  const key = mediaKeyOf(event)
  if (isPrivateKey(key)) assertGranted(event, 'GET', key)
  const store = useLocalMediaStore()
  const contentType = contentTypeOfKey(key)
  await new Promise<void>((resolve, reject) => {
    send(event.node.req, key, {
      root: store.root,
      dotfiles: 'deny',
      index: false,
      etag: true,
      lastModified: true,
      maxAge: isPrivateKey(key) ? 0 : '365d',
      immutable: !isPrivateKey(key),
    })
      .on('headers', (res: ServerResponse) => {
        res.setHeader('content-type', contentType)
        res.setHeader('x-content-type-options', 'nosniff')
        res.setHeader('content-security-policy', 'default-src \'none\'; sandbox')
        res.setHeader('cross-origin-resource-policy', 'same-site')
        if (isPrivateKey(key)) res.setHeader('cache-control', 'private, no-store')
      })
      .on('error', (error: { status?: number }) => reject(error.status === 404 ? notFound() : error))
      .pipe(event.node.res)
    event.node.res.once('close', () => resolve())
  })
}
