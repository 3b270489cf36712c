import { onMounted, shallowRef, type ShallowRef } from 'vue'

/**
 * `path`'s answer, asked in the browser once the component shows: off the page's first answer,
 * and `undefined` until it comes (or when it fails: the part that needs it simply does not show).
 * A plain `$fetch` rather than `useFetch` (lazy, client-only) on guest pages: useAsyncData's
 * machinery and ohash were ~6 KB gzip of /enviar's first load for an answer nobody refreshes
 * (bench/RESULTS.md, "Pick to row on a slow network"), as useEventInfo.ts found for the event.
 */
export function useFetchedInBrowser<T>(path: string): ShallowRef<T | undefined> {
  const data = shallowRef<T>()
  onMounted(async () => {
    try {
      // Typed by the caller: Nitro types `$fetch` by literal route, and this path is any of them.
      data.value = (await $fetch(path)) as T
    }
    catch {
      // Nothing shown: a closed gallery, a PIN or no network answers an error here.
    }
  })
  return data
}
