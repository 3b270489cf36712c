import { useNow } from '@vueuse/core'
import { ref, watch } from 'vue'
import { useMessages } from '../useMessages'
import type { useMyUploads } from '../useMyUploads'
import type { UploadQueue } from './useUploadQueue'
import { undoLeftMs } from '~/upload-client/undo'

type MyUploads = ReturnType<typeof useMyUploads>

/**
 * The queue's rows and "sent from this phone" kept in step: each file sent or removed asks the
 * server's list again, and "Remover" (deleting from the gallery for good) goes through the queue's
 * row that sent the upload, which holds its undo grant.
 */
export function useSentUploads(queue: UploadQueue, mine: MyUploads) {
  const t = useMessages()
  /** The last file taken back with "Remover", said aloud once it is gone. */
  const removedName = ref<string | null>(null)

  // Each file sent or removed changes this device's list and its count.
  watch(() => queue.doneCount.value, () => void mine.refreshNow())

  // A clock that ticks, so the list's "Remover" goes by itself when the window closes, as the row's does.
  const now = useNow({ interval: 1000 })

  /** The queue row that sent an upload, while its undo grant lasts (the token lives with the row). */
  function sentRow(id: string) {
    return queue.items.value.find(item => item.uploadId === id && undoLeftMs(item, now.value.getTime()) > 0)
  }
  const canRemoveListed = (id: string) => sentRow(id) !== undefined

  /** A queue row's "Remover": asked first (the platform's own dialog), then said done. */
  async function removeRow(key: string) {
    const item = queue.items.value.find(candidate => candidate.key === key)
    if (!item || !window.confirm(t.item.removeConfirm(item.fileName))) return
    if (await queue.removeSent(key)) removedName.value = item.fileName
  }

  /** The list's "Remover". */
  async function removeListed(id: string) {
    const row = sentRow(id)
    if (!row) return
    await queue.removeSent(row.key)
    // The queue drops its row only once the server removed the upload.
    if (!queue.items.value.includes(row)) mine.forget(id)
    await mine.refreshNow()
  }

  return { removedName, canRemoveListed, removeRow, removeListed }
}
