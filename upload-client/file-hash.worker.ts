import { sha256OfChunks } from './sha256-chunks'
import type { FileHashReply, FileHashRequest } from './file-hash'

/** Hashes a large file off the main thread, so the upload page keeps answering taps meanwhile. */
addEventListener('message', (event: MessageEvent<FileHashRequest>) => {
  const { id, blob } = event.data
  const reply = (message: FileHashReply) => postMessage(message)
  sha256OfChunks(blob).then(hash => reply({ id, hash }), () => reply({ id, hash: null }))
})
