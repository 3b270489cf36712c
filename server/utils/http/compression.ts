import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { H3Event } from 'h3'

/** Below this, compressing saves less than the headers it adds and the time it takes. */
export const COMPRESS_MIN_BYTES = 1024

export type ContentEncoding = 'br' | 'gzip' | 'identity'

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/**
 * Compresses on the Node server only, where nothing in front of it does (the venue's Wi-Fi is the
 * bottleneck, not the CPU); on serverless presets the platform's edge compresses.
 */
export function compressesAnswers(): boolean {
  return isLongRunningPreset()
}

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the acceptable one with
 * the highest q-value, brotli before gzip on a tie; `q=0` refuses; `*` stands for both.
 */
export function pickEncoding(header: string | undefined): ContentEncoding {
  if (!header) return 'identity'
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let q = 1
    for (const param of params) {
      const [key, value] = param.trim().split('=')
      if (key === 'q') q = Number(value)
    }
    weights.set(name, Number.isFinite(q) ? q : 0)
  }
  const weight = (name: 'br' | 'gzip') => weights.get(name) ?? weights.get('*') ?? 0
  const br = weight('br')
  const gz = weight('gzip')
  if (br <= 0 && gz <= 0) return 'identity'
  return br >= gz ? 'br' : 'gzip'
}

/**
 * Brotli quality: 11 (the default) takes tens of milliseconds for a 100-item page; 5 is within
 * a few per cent of its size at a fraction of the time. Answers kept for many clients (the
 * gallery's cache) are compressed once, harder.
 */
export function compress(body: Buffer, encoding: 'br' | 'gzip', effort: 'fast' | 'thorough' = 'fast'): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(body, { level: effort === 'fast' ? 6 : 9 })
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 5 : 9,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}

/** A JSON answer encoded once, with its compressed forms made on first demand and kept. */
export class EncodedJson {
  readonly identity: Buffer
  private readonly compressed = new Map<'br' | 'gzip', Promise<Buffer>>()

  constructor(value: unknown) {
    this.identity = Buffer.from(JSON.stringify(value))
  }

  variant(encoding: ContentEncoding): Promise<Buffer> | Buffer {
    if (encoding === 'identity') return this.identity
    let made = this.compressed.get(encoding)
    if (!made) {
      made = compress(this.identity, encoding, 'thorough')
      this.compressed.set(encoding, made)
    }
    return made
  }
}

/**
 * The bytes to send for a JSON body, compressed when the client accepts it and the body is
 * worth it, with the headers that say so. `vary: accept-encoding` whenever the encoding could
 * have differed, so that the browser's cache never hands a gzip body to a request without it.
 */
export async function encodeJsonAnswer(event: H3Event, body: EncodedJson | Buffer): Promise<Buffer> {
  const identity = body instanceof EncodedJson ? body.identity : body
  setResponseHeader(event, 'content-type', 'application/json')
  if (!compressesAnswers() || identity.length < COMPRESS_MIN_BYTES) return identity
  appendResponseHeader(event, 'vary', 'accept-encoding')
  const encoding = pickEncoding(getRequestHeader(event, 'accept-encoding'))
  if (encoding === 'identity') return identity
  setResponseHeader(event, 'content-encoding', encoding)
  return body instanceof EncodedJson ? body.variant(encoding) : compress(identity, encoding)
}
