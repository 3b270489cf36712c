import { ref, watch } from 'vue'
import { useMessages } from '../useMessages'
import type { useMyUploads } from '../useMyUploads'
import type { UploadQueue } from './useUploadQueue'

type MyUploads = ReturnType<typeof useMyUploads>

/**
 * The queue's rows and "sent from this phone" kept in step: each file sent or removed asks the
 * server's list again, and a file removed with "Remover" (from the gallery, for good) leaves both.
 */
export function useSentUploads(queue: UploadQueue, mine: MyUploads) {
  const t = useMessages()
  /** The last file taken back with "Remover", said aloud once it is gone. */
  const removedName = ref<string | null>(null)

  // Each file sent or removed changes this device's list and its count.
  watch(() => queue.doneCount.value, () => void mine.refreshNow())

  /** A row's "Remover": asked first (the platform's own dialog), then said done. */
  async function removeRow(key: string) {
    const item = queue.items.value.find(candidate => candidate.key === key)
    if (!item || !window.confirm(t.item.removeConfirm(item.fileName))) return
    const { uploadId } = item
    if (!(await queue.removeSent(key))) return
    removedName.value = item.fileName
    // Gone from the server's list too, at once: it never shows again as a row of its own.
    if (uploadId) mine.forget(uploadId)
  }

  return { removedName, removeRow }
}
