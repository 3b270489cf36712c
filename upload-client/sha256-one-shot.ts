/**
 * Up to this size one Web Crypto call hashes the file (native, and run off the main thread by
 * the browser itself); a photo is far below it. Above it the file is read in chunks
 * (sha256-chunks.ts), so a video never sits in memory whole.
 */
export const ONE_SHOT_MAX_BYTES = 32 * 1024 * 1024

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), byte => byte.toString(16).padStart(2, '0')).join('')
}

/** Web Crypto exists only in a secure context (https, localhost): a venue's plain-http LAN address has none. */
function subtle(): SubtleCrypto | null {
  return typeof crypto !== 'undefined' && crypto.subtle ? crypto.subtle : null
}

/** The SHA-256 (hex) of a blob in one Web Crypto call; null when it is too large for one, or there is no Web Crypto. */
export async function sha256OneShot(blob: Blob): Promise<string | null> {
  const crypto = subtle()
  if (!crypto || blob.size > ONE_SHOT_MAX_BYTES) return null
  return toHex(await crypto.digest('SHA-256', await blob.arrayBuffer()))
}
