import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { createClient } from '@libsql/client'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'

/** A request with full control over headers and body framing (chunked, lying content-length). */
function raw(url: string, path: string, opts: { method: string, headers: Record<string, string>, chunks: Buffer[], agent?: Agent }) {
  return new Promise<{ status: number, headers: IncomingHttpHeaders, body: any }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: opts.method, headers: opts.headers, agent: opts.agent }, (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }))
    })
    req.on('error', reject)
    for (const chunk of opts.chunks) req.write(chunk)
    req.end()
  })
}

describe('error contract', () => {
  const server = useTestServer()

  it('malformed JSON is 400 INVALID_REQUEST', async () => {
    const response = await api(server.url, '/api/uploads/init', { method: 'POST', body: '{"fileName": ', headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(400)
    expect(response.body.data.code).toBe('INVALID_REQUEST')
  })

  it('a text/plain body is 415 JSON_REQUIRED', async () => {
    const response = await api(server.url, '/api/uploads/init', { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } })
    expect(response.status).toBe(415)
    expect(response.body.data).toEqual({ code: 'JSON_REQUIRED' })
    const form = await api(server.url, '/api/admin/login', { method: 'POST', body: 'email=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(form.status).toBe(415)
  })

  it('a body over 64 KiB is 413 BODY_TOO_LARGE, declared or streamed', async () => {
    const big = JSON.stringify({ fileName: 'x'.repeat(70 * 1024) })
    const declared = await api(server.url, '/api/uploads/init', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
    expect(declared.status).toBe(413)
    expect(declared.body.data).toEqual({ code: 'BODY_TOO_LARGE', limit: 65536 })
    const chunked = await raw(server.url, '/api/uploads/init', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 20 }, () => Buffer.from('x'.repeat(8192))),
    })
    expect(chunked.status).toBe(413)
    expect(chunked.body.data.code).toBe('BODY_TOO_LARGE')
  })

  it('a chunked body over 64 KiB is refused with connection: close, and the next request on the same agent is answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const refused = await raw(server.url, '/api/uploads/init', {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: Array.from({ length: 20 }, () => Buffer.from('x'.repeat(8192))),
      })
      expect(refused.status).toBe(413)
      expect(refused.body.data).toEqual({ code: 'BODY_TOO_LARGE', limit: 65536 })
      // The unread rest of the body must not be taken for the next request: the server says so.
      expect(refused.headers.connection).toBe('close')
      const next = await raw(server.url, '/api/event', { method: 'GET', agent, headers: {}, chunks: [] })
      expect(next.status).toBe(200)
      await new Promise(resolve => setTimeout(resolve, 200))
      expect(server.output()).not.toMatch(/TypeError|uncaught/i)
    }
    finally {
      agent.destroy()
    }
  })

  it('a guest who goes away mid-PUT is no error: no [unhandled] line, and the upload can be sent again', async () => {
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 256 * 1024 } })).body
    const { url, headers } = created.upload
    await new Promise<void>((resolve) => {
      // A connection of its own: a kept-alive one the server has since closed would fail before sending.
      const req = request(url, { method: 'PUT', agent: false, headers: { ...headers, 'content-length': String(256 * 1024) } })
      req.on('error', () => {})
      req.on('close', () => resolve())
      req.write(Buffer.alloc(64 * 1024))
      // Like a reload: the browser drops the connection with most of the body unsent.
      setTimeout(() => req.destroy(), 200)
    })
    await new Promise(resolve => setTimeout(resolve, 300))
    // The server did see the abort (one info line), and logged no error for it.
    expect(server.output()).toMatch(/\[request aborted by the client\] PUT \/media\/staging\/orig\/\S+\.jpg\n/)
    expect(server.output()).not.toMatch(/\[unhandled\]|\[request error\]|sig=/)
    const photo = Buffer.alloc(256 * 1024)
    expect((await fetch(url, { method: 'PUT', headers, body: photo })).status).toBe(200)
  })

  it('an unknown /api route is 404 NOT_FOUND in JSON, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await api(server.url, '/api/does-not-exist/at/all', { method })
      expect(response.status).toBe(404)
      expect(response.body.data).toEqual({ code: 'NOT_FOUND' })
    }
  })

  it('wrong types and unknown fields are 400 with the validator issues', async () => {
    const response = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 1, contentType: 'image/jpeg', size: '10', surprise: true } })
    expect(response.status).toBe(400)
    expect(response.body.data.code).toBe('INVALID_REQUEST')
    const paths = response.body.data.issues.map((issue: any) => issue.path.join('.') || issue.code)
    expect(paths).toContain('fileName')
    expect(paths).toContain('size')
  })

  it('API answers are never served from a cache without asking the server', async () => {
    // Conditional answers (ETag) may be kept by the browser, but only to be revalidated.
    const response = await fetch(`${server.url}/api/event`)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('etag')).toMatch(/^W\/".+"$/)
    // Everything else is never stored at all.
    const other = await fetch(`${server.url}/api/uploads/init`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(other.status).toBe(400)
    expect(other.headers.get('cache-control')).toBe('no-store')
  })
})

describe('database locked by another writer', () => {
  const server = useTestServer({ admin: true, env: { DATABASE_BUSY_TIMEOUT_MS: '1500' } })

  it('a write waits for the lock instead of failing with SQLITE_BUSY', async () => {
    const other = createClient({ url: `file:${server.dbPath}` })
    const tx = await other.transaction('write')
    await tx.execute('UPDATE event_settings SET couple_names = couple_names')
    const pending = api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Waited' }, cookie: server.cookie })
    await new Promise(resolve => setTimeout(resolve, 500))
    await tx.commit()
    const response = await pending
    expect(response.status).toBe(200)
    expect(response.body.coupleNames).toBe('Waited')
    other.close()
  })

  it('a lock held past the timeout answers 503 DATABASE_UNAVAILABLE, and later writes succeed', async () => {
    const other = createClient({ url: `file:${server.dbPath}` })
    const tx = await other.transaction('write')
    await tx.execute('UPDATE event_settings SET couple_names = couple_names')
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Too late' }, cookie: server.cookie })
    expect(response.status).toBe(503)
    expect(response.body.data).toEqual({ code: 'DATABASE_UNAVAILABLE' })
    await tx.rollback()
    other.close()
    const after = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'After' }, cookie: server.cookie })
    expect(after.status).toBe(200)
    expect(after.body.coupleNames).toBe('After')
  })
})
