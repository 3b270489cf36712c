// The phone side of the public images (upload-client/public-images.ts) alone on a page, bundled by Vite as Nuxt bundles it (the worker
// included), so a test or the bench can drive it in real Chromium without the whole app.
import { makePublicImages } from '../../../upload-client/public-images'

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let text = ''
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(text)
}

const described = async (blob: Blob) => ({ type: blob.type, size: blob.size, base64: await base64(blob) })

let loaded: File | null = null

/** Fetches `url` as the photo file a guest picked (kept for `makeLoaded`, so its fetch is not measured). */
async function loadPhoto(url: string): Promise<number> {
  const response = await fetch(url)
  loaded = new File([await response.blob()], url.split('/').pop()!, { type: response.headers.get('content-type') ?? '' })
  return loaded.size
}

/** Makes the loaded photo's public images, and answers them with how long it took. */
async function makeLoaded(withBytes = true) {
  const started = performance.now()
  const images = await makePublicImages(loaded!)
  const ms = performance.now() - started
  if (!images) return { ms, images: null }
  const describe = withBytes ? described : async (blob: Blob) => ({ type: blob.type, size: blob.size, base64: '' })
  return {
    ms,
    images: {
      width: images.width,
      height: images.height,
      display: await describe(images.display),
      thumb: await describe(images.thumb),
      thumb2x: await describe(images.thumb2x),
    },
  }
}

/** The loaded photo, queued with a signal that aborts before its turn: the guest removed it. */
async function makeAborted(): Promise<boolean> {
  const controller = new AbortController()
  const made = makePublicImages(loaded!, controller.signal)
  controller.abort()
  return (await made) === null
}

async function makeFromUrl(url: string, withBytes = true) {
  await loadPhoto(url)
  return makeLoaded(withBytes)
}

Object.assign(window, { loadPhoto, makeLoaded, makeAborted, makeFromUrl })
document.documentElement.dataset.ready = '1'
