import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The raw bytes, as signed or encrypted. */
  body: Buffer
  at: number
}

export interface Receiver {
  url: string
  received: ReceivedRequest[]
  /** The statuses the next requests get, in order; 200 once they run out. */
  answerWith(...statuses: number[]): void
  /** Resolves once `count` requests arrived (counted since the last `clear()`), or throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  clear(): void
  close(): Promise<void>
}

/**
 * An HTTP server on loopback that records what it is sent: the couple's webhook or ntfy server,
 * or a browser's push service. The notifications under test really travel over HTTP to it.
 */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = []
  let statuses: number[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ method: request.method!, path: request.url!, headers: request.headers, body: Buffer.concat(chunks), at: Date.now() })
      response.statusCode = statuses.shift() ?? 200
      response.end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerWith: (...next) => {
      statuses = next
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${received.length}`)
        await new Promise(resolve => setTimeout(resolve, 25))
      }
      return received.slice(0, count)
    },
    clear: () => {
      received.length = 0
      statuses = []
    },
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  }
}
