import { computed } from 'vue'
import { useMessages } from '../useMessages'
import type { useMyUploads } from '../useMyUploads'
import type { UploadQueue } from './useUploadQueue'
import type { RefusedFile } from './words'

type MyUploads = ReturnType<typeof useMyUploads>

/** The couple's per-guest limit (the disposable camera), as the upload page applies it to picked files. */
export function useGuestLimit(queue: UploadQueue, mine: MyUploads) {
  const t = useMessages()

  /**
   * Files this device may still start: the server's count (sent and in flight) less what this
   * page holds that has not reached the server yet.
   */
  const slotsLeft = computed(() => {
    const limit = mine.limit.value
    if (limit === null) return Number.POSITIVE_INFINITY
    const notStarted = queue.items.value.filter(item => !item.uploadId && !item.done && item.phase !== 'error').length
    return Math.max(0, limit - mine.used.value - notStarted)
  })

  /** No file more may start from this phone: the picker is disabled. */
  const reached = computed(() => slotsLeft.value === 0)

  /** The files that fit, and the ones beyond the limit, refused here before any is sent. */
  function split(files: File[]): { allowed: File[], beyond: RefusedFile[] } {
    const allowed = files.slice(0, slotsLeft.value)
    const beyond = files.slice(allowed.length).map(file => ({ name: file.name, reason: t.refusal.guestLimit(mine.limit.value ?? 0) }))
    return { allowed, beyond }
  }

  return { slotsLeft, reached, split }
}
