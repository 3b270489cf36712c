import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { Transform } from 'node:stream'
import { freePort } from '../../helpers/ports'

/** One request that went through the proxy, as the server saw it. */
export interface SeenRequest {
  method: string
  path: string
  /** Multipart part number of a PUT to /media (from the signed URL's `part`). */
  part: number | null
  /** The server's status; null when the body never arrived whole (the browser dropped it). */
  status: number | null
  body?: string
}

export interface TestProxy {
  url: string
  seen: SeenRequest[]
  /** Slows PUT bodies to this many bytes a second (0: full speed). */
  setThrottle(bytesPerSecond: number): void
  /** PUTs of part `n` the server answered with 200. */
  partsStored(): Map<number, number>
  stop(): Promise<void>
}

function throttle(getRate: () => number): Transform {
  let nextAt = Date.now()
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const rate = getRate()
      if (!rate) return done(null, chunk)
      const now = Date.now()
      nextAt = Math.max(nextAt, now) + (chunk.length / rate) * 1000
      setTimeout(() => done(null, chunk), nextAt - now)
    },
  })
}

/**
 * A pass-through proxy in front of the built server: it counts what reaches the server (how
 * many times each part was stored) and can slow uploads down to phone speed, so a test can cut
 * the connection or reload the page in the middle of a file. The Host header is forwarded as is,
 * so the URLs the server signs point back at the proxy.
 */
export async function startProxy(target: string): Promise<TestProxy> {
  const upstream = new URL(target)
  const seen: SeenRequest[] = []
  let rate = 0
  const port = await freePort()
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy')
    const entry: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      part: url.searchParams.has('part') ? Number(url.searchParams.get('part')) : null,
      status: null,
    }
    seen.push(entry)
    const isUpload = entry.method === 'PUT' && entry.path.startsWith('/media/')
    const isApiPost = entry.method === 'POST' && entry.path.startsWith('/api/')
    const forward = request({
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    }, (answer) => {
      entry.status = answer.statusCode ?? null
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => res.destroy())
    // The browser went away mid-body (offline, reload): the server must see a cut body too.
    req.on('close', () => {
      if (!req.complete) forward.destroy()
    })
    if (isApiPost) {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        entry.body = Buffer.concat(chunks).toString('utf8')
      })
    }
    if (isUpload) req.pipe(throttle(() => rate)).pipe(forward)
    else req.pipe(forward)
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setThrottle(bytesPerSecond) {
      rate = bytesPerSecond
    },
    partsStored() {
      const counts = new Map<number, number>()
      for (const entry of seen) {
        if (entry.method === 'PUT' && entry.part !== null && entry.status === 200) counts.set(entry.part, (counts.get(entry.part) ?? 0) + 1)
      }
      return counts
    },
    stop: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
