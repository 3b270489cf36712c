/**
 * The SHA-256 (hex) of the exact bytes a file will be sent as: the server recognises bytes it
 * already has by it ("Já enviada"), and so does the queue, for a file picked twice.
 */
import { sha256OneShot } from './sha256-one-shot'

export interface FileHashRequest { id: number, blob: Blob }
export interface FileHashReply { id: number, hash: string | null }

let worker: Worker | null = null
let workerBroken = false
let nextId = 1

function inWorker(blob: Blob): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      // Vite (and so Nuxt) bundles the worker from this exact `new Worker(new URL(…))` form.
      worker ??= new Worker(new URL('./file-hash.worker.ts', import.meta.url), { type: 'module' })
    }
    catch {
      workerBroken = true
      return resolve(null)
    }
    const id = nextId++
    const current = worker
    const finish = (hash: string | null) => {
      current.removeEventListener('message', onMessage)
      current.removeEventListener('error', onError)
      resolve(hash)
    }
    const onMessage = (event: MessageEvent<FileHashReply>) => {
      if (event.data.id === id) finish(event.data.hash)
    }
    const onError = () => {
      workerBroken = true
      worker?.terminate()
      worker = null
      finish(null)
    }
    current.addEventListener('message', onMessage)
    current.addEventListener('error', onError)
    current.postMessage({ id, blob } satisfies FileHashRequest)
  })
}

/** Gives the page a turn between chunks when the main thread must do the hashing itself. */
const yieldToPage = () => new Promise<void>(resolve => setTimeout(resolve, 0))

/** The page's hasher: one Web Crypto call for a photo, a worker reading a video in chunks. */
export async function hashBlob(blob: Blob): Promise<string> {
  const oneShot = await sha256OneShot(blob)
  if (oneShot) return oneShot
  if (!workerBroken && typeof Worker === 'function') {
    const hash = await inWorker(blob)
    if (hash) return hash
  }
  // Loaded only here: the incremental SHA-256 stays out of the page's first scripts.
  const { sha256OfChunks } = await import('./sha256-chunks')
  return sha256OfChunks(blob, yieldToPage)
}
