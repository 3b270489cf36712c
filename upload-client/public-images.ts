import type { Size } from '#shared/media/public-image'
import { decodePicture, drawPublicImages, elementSurface, type DrawFailure, type Picture, type PublicImages } from './public-images-draw'
import { decodeImageElement } from './image-element'

export type { PublicImages } from './public-images-draw'

/**
 * A photo's public images made on the phone: the display image and the two
 * thumbnails the public sees, so the server only has to check them instead of making them.
 * In a worker where the browser allows it (OffscreenCanvas there), else on the main thread with
 * a <canvas>. Strictly best effort: null means "send the original alone",
 * and the server derives the images as before.
 */

export interface PublicImagesRequest { id: number, file: Blob }
export type PublicImagesReply = { id: number, images: PublicImages } | { id: number, failure: DrawFailure }

/** A 48-megapixel photo on a slow phone takes seconds; past this the worker is taken as stuck. */
const WORKER_TIMEOUT_MS = 60_000

let worker: Worker | null = null
/** Set once the worker could not start (a Content-Security-Policy, an old browser): the main thread does the work. */
let workerBroken = false
let nextId = 1
let chain: Promise<unknown> = Promise.resolve()

function canUseWorker(): boolean {
  return !workerBroken && typeof Worker === 'function' && typeof OffscreenCanvas === 'function'
}

function startWorker(): Worker {
  // Vite (and so Nuxt) bundles the worker from this exact `new Worker(new URL(…))` form.
  worker ??= new Worker(new URL('./public-images.worker.ts', import.meta.url), { type: 'module' })
  return worker
}

function stopWorker(): void {
  worker?.terminate()
  worker = null
}

/** The worker's answer; 'unsupported' when it cannot run at all. */
function inWorker(file: Blob): Promise<PublicImages | DrawFailure | 'timeout'> {
  return new Promise((resolve) => {
    const id = nextId++
    let current: Worker
    try {
      current = startWorker()
    }
    catch {
      workerBroken = true
      return resolve('unsupported')
    }
    const finish = (result: PublicImages | DrawFailure | 'timeout') => {
      clearTimeout(timer)
      current.removeEventListener('message', onMessage)
      current.removeEventListener('error', onError)
      resolve(result)
    }
    const onMessage = (event: MessageEvent<PublicImagesReply>) => {
      if (event.data.id !== id) return
      finish('images' in event.data ? event.data.images : event.data.failure)
    }
    const onError = () => {
      // The script did not load or threw at the top: never try it again on this page.
      workerBroken = true
      stopWorker()
      finish('unsupported')
    }
    const timer = setTimeout(() => {
      stopWorker()
      finish('timeout')
    }, WORKER_TIMEOUT_MS)
    current.addEventListener('message', onMessage)
    current.addEventListener('error', onError)
    current.postMessage({ id, file } satisfies PublicImagesRequest)
  })
}

/** The worker's decoders (ImageDecoder, createImageBitmap) where they decode the file, else an <img>, which Safari decodes HEIC with. */
async function decodeOnPage(file: Blob, original: Size | null, display: Size | null): Promise<Picture> {
  if (typeof createImageBitmap === 'function') {
    try {
      return await decodePicture(file, original, display)
    }
    catch { /* fall through to an <img> */ }
  }
  return decodeImageElement(file)
}

async function make(file: Blob): Promise<PublicImages | null> {
  if (canUseWorker()) {
    const result = await inWorker(file)
    if (typeof result !== 'string') return result
    // Stuck, or drawn and refused: the main thread would only do the same, slower and in the way.
    if (result === 'timeout' || result === 'refused') return null
  }
  if (typeof document === 'undefined') return null
  const result = await drawPublicImages(file, elementSurface, decodeOnPage).catch((): DrawFailure => 'unsupported')
  return typeof result === 'string' ? null : result
}

/**
 * The display image and thumbnails of a photo file, or null when this browser cannot make them
 * (the upload then sends the original alone). One photo at a time, in call order: two full-size
 * decodes at once is what would crash a phone with little memory. A photo whose `signal` has
 * aborted by its turn (the guest removed it) is skipped.
 */
export function makePublicImages(file: Blob, signal?: AbortSignal): Promise<PublicImages | null> {
  const next = chain.then(() => (signal?.aborted ? null : make(file))).catch(() => null)
  chain = next
  return next
}
