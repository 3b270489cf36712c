import { listenForAnswerSources, registerServiceWorker } from '~/composables/service-worker/registration'

/** Registers the service worker once the page has loaded, so it never competes with the page's own requests. */
export default defineNuxtPlugin(() => {
  listenForAnswerSources()
  if (document.readyState === 'complete') void registerServiceWorker()
  else window.addEventListener('load', () => void registerServiceWorker(), { once: true })
})
