import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto'

/** A browser's side of a push subscription: its key pair and auth secret (RFC 8291). */
export interface PushClient {
  ecdh: ECDH
  auth: Buffer
  keys: { p256dh: string, auth: string }
}

export function pushClient(): PushClient {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length))

/**
 * Decrypts an `aes128gcm` push message as the browser would, written from the RFC (not from the
 * library the server uses): the RFC 8188 header (salt, record size, the sender's key), the RFC 8291
 * key schedule, one AES-128-GCM record whose padding ends at the 0x02 delimiter.
 */
export function decryptPush(client: PushClient, body: Buffer): string {
  const salt = body.subarray(0, 16)
  const idLength = body[20]!
  const senderKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  const shared = client.ecdh.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), client.ecdh.getPublicKey(), senderKey])
  const ikm = hkdf(shared, client.auth, keyInfo, 32)
  const key = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16)
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12)
  const decipher = createDecipheriv('aes-128-gcm', key, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('the last record lacks its 0x02 padding delimiter')
  return padded.subarray(0, end).toString('utf8')
}
