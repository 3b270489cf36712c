/**
 * The page's side of the service worker (service-worker/sw.ts): registering it, knowing when a
 * new deployment's worker waits, and whether the answers the page gets come from the network or
 * from the worker's cache. Module state: one worker per page, shared by every component.
 */

/** How often a page that never navigates (the venue screen, all night) asks for a new worker. */
const UPDATE_CHECK_MS = 15 * 60_000

const updateWaiting = ref(false)
/** The last public answer the page got was the worker's cached copy (the network failed). */
const offlineCopy = ref(false)
let registration: ServiceWorkerRegistration | undefined

function watchForWaiting(found: ServiceWorkerRegistration) {
  // A worker waiting while another controls the page is a new deployment's (the first one
  // takes over by itself).
  const check = () => {
    updateWaiting.value = !!found.waiting && !!navigator.serviceWorker.controller
  }
  check()
  found.addEventListener('updatefound', () => {
    found.installing?.addEventListener('statechange', check)
  })
}

/**
 * Listens, from the page's start, for the worker saying where each answer came from: an offline
 * page asks its first answers before it has even loaded.
 */
export function listenForAnswerSources(): void {
  if (!('serviceWorker' in navigator)) return
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string, offline?: boolean }>) => {
    if (event.data?.type === 'answer-source') offlineCopy.value = !!event.data.offline
  })
  // Messages wait in a queue until this (or the document's load) opens it.
  navigator.serviceWorker.startMessages()
}

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  try {
    registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' })
  }
  catch {
    // Not allowed here (plain http on a LAN address, a private window): the pages work online.
    return
  }
  watchForWaiting(registration)
  setInterval(() => void registration?.update().catch(() => undefined), UPDATE_CHECK_MS)
}

/**
 * Lets the waiting worker take over and reloads the page once it has: the page then runs the
 * new deployment's code. A guest's upload queue is in IndexedDB and resumes after the reload.
 */
let applying = false
function applyUpdate() {
  const waiting = registration?.waiting
  if (!waiting || applying) return
  applying = true
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true })
  waiting.postMessage({ type: 'SKIP_WAITING' })
}

/**
 * An admin logged out: the worker drops every image the public gallery does not list (an admin
 * page may have shown pending or rejected items' images), so this browser keeps nothing of the
 * session. Fire and forget: the worker finishes it even if the page goes.
 */
export function forgetPrivateMedia(): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return
  void navigator.serviceWorker.getRegistration().then(found => found?.active?.postMessage({ type: 'forget-private-media' }))
}

export function useServiceWorker() {
  return { updateWaiting: readonly(updateWaiting), offlineCopy: readonly(offlineCopy), applyUpdate }
}
