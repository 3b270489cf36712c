// The phone side of issue 15 alone on a page, bundled by Vite as Nuxt bundles it (the worker
// included), so a test or the bench can drive it in real Chromium without the whole app.
import { makePublicImages } from '../../../../composables/upload/public-images'

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let text = ''
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(text)
}

const described = async (blob: Blob) => ({ type: blob.type, size: blob.size, base64: await base64(blob) })

/** Fetches `url` as a photo file, makes its public images, and answers them with how long it took. */
async function makeFromUrl(url: string, withBytes = true) {
  const response = await fetch(url)
  const file = new File([await response.blob()], url.split('/').pop()!, { type: response.headers.get('content-type') ?? '' })
  const started = performance.now()
  const images = await makePublicImages(file)
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

Object.assign(window, { makeFromUrl })
document.documentElement.dataset.ready = '1'
