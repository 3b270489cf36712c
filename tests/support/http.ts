import { ADMIN_EMAIL, ADMIN_PASSWORD } from './server'

export interface JsonResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

/**
 * fetch on a connection of its own (`Connection: close`), for the requests a test makes to the
 * servers it starts. Node's fetch keeps an idle socket for the next request, and the server closes
 * it after its keep-alive timeout (5 s); a test that keeps its process busy longer than that (a
 * large download compared byte by byte) never sees the close, and its next request is written on
 * the dead socket: "other side closed". Retrying is no cure: an init or a confirm is not
 * idempotent, and the server may have acted before the connection dropped. So nothing is reused;
 * a new local connection costs well under a millisecond.
 */
export function fetchFresh(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('connection', 'close')
  return fetch(url, { ...init, headers })
}

/** fetch + JSON, never throwing on an error status: tests assert on status and body. */
export async function api<T = any>(base: string, path: string, init: RequestInit & { json?: unknown, cookie?: string } = {}): Promise<JsonResponse<T>> {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  if (init.cookie) headers.set('cookie', init.cookie)
  const response = await fetchFresh(`${base}${path}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    redirect: 'manual',
  })
  const text = await response.text()
  let body: any = text
  try {
    body = text ? JSON.parse(text) : null
  }
  catch { /* not JSON */ }
  return { status: response.status, headers: response.headers, body }
}

/** Logs in and returns the `name=value` cookie pair to send back. */
export async function login(base: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const response = await api(base, '/api/admin/login', { method: 'POST', json: { email, password } })
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`)
  return response.headers.get('set-cookie')!.split(';')[0]!
}
