import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex } from '@noble/hashes/utils'

/** Read this much of the file at a time: a 500 MB video never sits in memory whole. */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024

/**
 * SHA-256 of a blob read in chunks. Web Crypto's `digest` takes the whole input at once (a video
 * would need its full size in memory, twice on some phones), so large files go through an
 * incremental SHA-256 (@noble/hashes: audited, no dependencies). Used in the worker, and on the
 * main thread only where no worker can start.
 */
export async function sha256OfChunks(blob: Blob, afterChunk?: () => Promise<void>): Promise<string> {
  const hash = sha256.create()
  for (let start = 0; start < blob.size; start += HASH_CHUNK_BYTES) {
    hash.update(new Uint8Array(await blob.slice(start, start + HASH_CHUNK_BYTES).arrayBuffer()))
    await afterChunk?.()
  }
  return bytesToHex(hash.digest())
}
