import { onMounted, ref, watch } from 'vue'
import { rememberAuthor, rememberedAuthor } from '~/app-utils/guest-author'
import type { UploadQueue } from './useUploadQueue'

/**
 * The name and message fields of the upload page: the name remembered on this device for the next
 * visit (read once mounted: the server knows none), and both given to the files on the page as
 * the guest types.
 */
export function useUploadWords(queue: UploadQueue) {
  const author = ref('')
  const message = ref('')

  onMounted(() => {
    author.value = rememberedAuthor()
    // The queue outlives the page (one per tab): back on it, the fields show the words its files took.
    if (queue.items.value.length) ({ author: author.value, message: message.value } = queue.words)
    watch(author, rememberAuthor)
  })

  // A reload brought files back: the fields show their words, so the next key edits those.
  watch(queue.restoredWords, (restored) => {
    if (!restored) return
    author.value = restored.author
    message.value = restored.message
  })

  /** The guest typed: the files on the page take the fields' words at once (the server hears once typing pauses). */
  function edit() {
    queue.setWords(author.value, message.value)
  }

  /** A field left: its words go to the server now. */
  function leave() {
    edit()
    queue.sendWords()
  }

  return { author, message, edit, leave }
}
