import { request, type IncomingHttpHeaders } from 'node:http'

export interface LoopbackResponse {
  status: number
  headers: IncomingHttpHeaders
  /** The body as sent, for comparing two answers byte for byte. */
  text: string
  body: any
  /** `name=value` of every cookie the answer set. */
  cookies: string[]
}

export interface LoopbackRequest {
  /** The client's own address: any of 127.0.0.0/8 (all of it is this machine's loopback on Linux). */
  from: string
  method?: string
  json?: unknown
  cookie?: string
  headers?: Record<string, string>
}

/**
 * One request over a connection of its own whose local end is bound to `from`, so the server sees
 * a client at that address: a crowd of hundreds of addresses from one test, with no proxy header.
 */
export function fromAddress(base: string, path: string, options: LoopbackRequest): Promise<LoopbackResponse> {
  const url = new URL(path, base)
  const body = options.json === undefined ? undefined : JSON.stringify(options.json)
  const headers: Record<string, string> = { connection: 'close', ...options.headers }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (options.cookie) headers.cookie = options.cookie
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path: url.pathname + url.search,
      method: options.method ?? 'GET',
      headers,
      localAddress: options.from,
      agent: false,
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let parsed: any = text
        try {
          parsed = text ? JSON.parse(text) : null
        }
        catch { /* not JSON */ }
        const cookies = (res.headers['set-cookie'] ?? []).map(line => line.split(';')[0]!)
        resolve({ status: res.statusCode!, headers: res.headers, text, body: parsed, cookies })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs `count` jobs with at most `parallel` in flight, and answers their results in order. */
export async function inParallel<T>(count: number, parallel: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = Array.from({ length: count })
  let next = 0
  async function worker() {
    while (next < count) {
      const i = next++
      results[i] = await job(i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker))
  return results
}
