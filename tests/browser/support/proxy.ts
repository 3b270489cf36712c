import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Transform } from 'node:stream'
import { freePort } from '../../support/ports'

/** One request that went through the proxy, as the server saw it. */
export interface SeenRequest {
  method: string
  path: string
  /** Multipart part number of a PUT to /media (from the signed URL's `part`). */
  part: number | null
  /** The server's status (or the proxy's, for an injected failure); null when the body never arrived whole. */
  status: number | null
  /** When the request arrived (ms since epoch). */
  at: number
  /** True when the proxy failed it on purpose instead of forwarding it. */
  injected?: boolean
  body?: string
  /** The If-None-Match the browser sent (its cache revalidating an answer). */
  ifNoneMatch?: string
  /** Who asked: a page's address, or the service worker's script (`/sw.js`) for its own fetches. */
  referer?: string
}

/** How to fail the next PUTs of one part: answer a status, or cut the connection. */
export interface PartFailure { part: number, fail: number | 'reset', times: number }

export interface TestProxy {
  url: string
  seen: SeenRequest[]
  /** Slows PUT bodies to this many bytes a second (0: full speed). */
  setThrottle(bytesPerSecond: number): void
  /** Fails the next PUTs of the given parts, as a flaky network or storage would. */
  failParts(failures: PartFailure[]): void
  /** Holds upload bodies where they are (true) or lets them flow again (false). */
  hold(held: boolean): void
  /**
   * Accepts every connection and request and never answers (true), as a venue whose uplink died
   * behind a working Wi-Fi, or a captive portal; false forwards again, and cuts what it held.
   */
  hang(hanging: boolean): void
  /**
   * Holds some requests back before the server sees them, as a slow, busy server would: `delayOf`
   * answers how long (ms) for each, 0 or nothing to forward at once. The body is read whole first and
   * the request goes on even if the browser has gone meanwhile (a reload): the server got it, and
   * answers late.
   */
  setDelay(delayOf: ((request: SeenRequest) => number) | null): void
  /** PUTs of part `n` the server answered with 200. */
  partsStored(): Map<number, number>
  stop(): Promise<void>
}

interface Valve { rate: number, held: boolean, waiting: Set<() => void> }

function throttle(valve: Valve): Transform {
  let nextAt = Date.now()
  const pass = (chunk: Buffer, done: (error: null, chunk: Buffer) => void) => {
    if (valve.held) {
      valve.waiting.add(() => pass(chunk, done))
      return
    }
    if (!valve.rate) return done(null, chunk)
    const now = Date.now()
    nextAt = Math.max(nextAt, now) + (chunk.length / valve.rate) * 1000
    setTimeout(() => done(null, chunk), nextAt - now)
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pass(chunk, done)
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
  const valve: Valve = { rate: 0, held: false, waiting: new Set() }
  let failures: PartFailure[] = []
  let hanging = false
  let delayOf: ((request: SeenRequest) => number) | null = null
  const held = new Set<ServerResponse>()
  const port = await freePort()
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy')
    const entry: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      part: url.searchParams.has('part') ? Number(url.searchParams.get('part')) : null,
      ifNoneMatch: req.headers['if-none-match'],
      referer: req.headers.referer,
      status: null,
      at: Date.now(),
    }
    seen.push(entry)
    if (hanging) {
      entry.injected = true
      held.add(res)
      res.on('close', () => held.delete(res))
      // Read what comes and never answer: the connection stays open until the browser gives up.
      req.resume()
      return
    }
    const isUpload = entry.method === 'PUT' && entry.path.startsWith('/media/')
    const failure = isUpload ? failures.find(f => f.part === entry.part && f.times > 0) : undefined
    if (failure) {
      failure.times--
      entry.injected = true
      if (failure.fail === 'reset') {
        req.socket.destroy()
        return
      }
      entry.status = failure.fail
      // Read the body first, as a real server would, then answer the failure.
      req.resume()
      req.on('end', () => {
        res.writeHead(failure.fail as number, { 'content-type': 'application/xml', 'connection': 'close' })
        res.end('<Error><Code>ServiceUnavailable</Code></Error>')
      })
      return
    }
    const delay = delayOf?.(entry) ?? 0
    if (delay > 0) {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const body = Buffer.concat(chunks)
        entry.body = body.toString('utf8')
        setTimeout(() => {
          const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
            entry.status = answer.statusCode ?? null
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          })
          forward.on('error', () => res.destroy())
          forward.end(body)
        }, delay)
      })
      return
    }
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
    if (isUpload) req.pipe(throttle(valve)).pipe(forward)
    else req.pipe(forward)
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setThrottle(bytesPerSecond) {
      valve.rate = bytesPerSecond
    },
    hold(held) {
      valve.held = held
      if (held) return
      const waiting = [...valve.waiting]
      valve.waiting.clear()
      for (const resume of waiting) resume()
    },
    hang(next) {
      hanging = next
      if (hanging) return
      for (const res of held) res.destroy()
      held.clear()
    },
    setDelay(next) {
      delayOf = next
    },
    failParts(next) {
      failures = next.map(failure => ({ ...failure }))
    },
    partsStored() {
      const counts = new Map<number, number>()
      for (const entry of seen) {
        if (entry.method === 'PUT' && entry.part !== null && entry.status === 200) counts.set(entry.part, (counts.get(entry.part) ?? 0) + 1)
      }
      return counts
    },
    stop: () => new Promise((resolve) => {
      valve.waiting.clear()
      for (const res of held) res.destroy()
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
