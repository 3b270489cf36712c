import { makeDisplayCopy } from '~/upload-client/display-copy'

/** The upload page's own copy step, timed on a video fetched from the harness's server. */
async function timeCopy(path: string): Promise<{ ms: number, size: number | null }> {
  const original = await (await fetch(path)).blob()
  const started = performance.now()
  const copy = await makeDisplayCopy(original, new AbortController().signal)
  return { ms: performance.now() - started, size: copy?.size ?? null }
}

Object.assign(window, { timeCopy })
document.documentElement.dataset.ready = ''
