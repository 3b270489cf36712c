/// <reference lib="webworker" />
import type { WorkboxPlugin } from 'workbox-core/types'
import type { PublicEventInfo } from '#shared/schemas/event'
import { API_CACHE, MEDIA_CACHE } from './addresses'

/**
 * A gallery that closes (403 GALLERY_CLOSED) or gets a PIN this browser has not typed (401
 * GALLERY_PIN_REQUIRED) must not go on showing itself from this phone's caches, offline or to
 * the next person holding it: the worker forgets every gallery answer and image it kept. The
 * cover's images stay, since `GET /api/event` shows the cover to everyone whatever the mode.
 */

/** Whether an answer is the gallery refusing this browser. */
export function galleryRefused(url: URL, status: number): boolean {
  return url.pathname === '/api/gallery' && (status === 401 || status === 403)
}

/** The cover's image addresses, as the kept `GET /api/event` answer names them. */
async function coverAddresses(answers: Cache, origin: string): Promise<Set<string>> {
  const kept = await answers.match(new URL('/api/event', origin).href)
  if (!kept) return new Set()
  try {
    const { cover } = await kept.json() as PublicEventInfo
    if (!cover) return new Set()
    return new Set([cover.url, cover.thumbUrl, cover.thumb2xUrl].filter((url): url is string => !!url).map(url => new URL(url, origin).href))
  }
  catch {
    return new Set()
  }
}

/** Drops every kept gallery answer and every kept image but the cover's. */
export async function forgetGallery(origin: string): Promise<void> {
  const answers = await caches.open(API_CACHE)
  for (const request of await answers.keys()) {
    if (new URL(request.url).pathname === '/api/gallery') await answers.delete(request)
  }
  const cover = await coverAddresses(answers, origin)
  const media = await caches.open(MEDIA_CACHE)
  for (const request of await media.keys()) {
    if (!cover.has(request.url)) await media.delete(request)
  }
}

/** For the public answers' strategy: the refusal reaches the page once the caches are empty. */
export function forgetGalleryWhenRefused(origin: string): WorkboxPlugin {
  return {
    fetchDidSucceed: async ({ request, response }) => {
      if (galleryRefused(new URL(request.url), response.status)) await forgetGallery(origin)
      return response
    },
  }
}
