import { drawPublicImages, offscreenSurface } from './public-images-draw'
import type { PublicImagesReply, PublicImagesRequest } from './public-images'

/**
 * Makes a photo's public images off the main thread, so the upload page keeps answering taps
 * while a phone decodes and encodes (seconds on a slow one). One photo at a time: the page sends
 * the next only after this one's reply.
 */
addEventListener('message', (event: MessageEvent<PublicImagesRequest>) => {
  const { id, file } = event.data
  const reply = (message: PublicImagesReply) => postMessage(message)
  if (typeof OffscreenCanvas !== 'function' || typeof createImageBitmap !== 'function') {
    reply({ id, failure: 'unsupported' })
    return
  }
  drawPublicImages(file, offscreenSurface).then(
    result => reply(typeof result === 'string' ? { id, failure: result } : { id, images: result }),
    () => reply({ id, failure: 'unsupported' }),
  )
})
