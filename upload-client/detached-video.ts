/**
 * Opens a file in a detached, muted <video> and lets `watch` wire the events it needs. `finish`
 * settles once: with null on an error or after `timeoutMs` (a browser that cannot decode the file
 * never fires an event at all on some phones), then frees the decoder and the object URL at once
 * instead of at garbage collection.
 */
export function withDetachedVideo<T>(file: Blob, timeoutMs: number, watch: (video: HTMLVideoElement, finish: (result: T | null) => void) => void): Promise<T | null> {
  return new Promise((resolve) => {
    const video = document.createElement('video')
    const url = URL.createObjectURL(file)
    let settled = false
    const finish = (result: T | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      video.removeAttribute('src')
      video.load()
      URL.revokeObjectURL(url)
      resolve(result)
    }
    const timer = setTimeout(() => finish(null), timeoutMs)
    video.muted = true
    video.onerror = () => finish(null)
    watch(video, finish)
    video.src = url
  })
}
