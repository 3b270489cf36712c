import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login } from '../support/http'
import { fromAddress, inParallel, type LoopbackResponse } from '../support/loopback'
import { startRedis, type TestRedis } from '../support/redis'
import { startServer, type TestServer } from '../support/server'

const PIN = '4821'
const HOUR = 60 * 60 * 1000
const MINUTE = 60 * 1000
/** The moment the crowd comes, on the servers' window clock (TEST_CLOCK_FILE). */
const T0 = Date.UTC(2026, 11, 12, 23, 0, 0)

/** The server's clock for the PIN's hourly budget: a file the test writes, standing still in between. */
function movableClock() {
  const file = join(mkdtempSync(join(tmpdir(), 'pin-clock-')), 'now')
  const set = (ms: number) => writeFileSync(file, String(ms))
  set(T0)
  return { file, set }
}

/** How many answers had each status, e.g. `{ 403: 200, 429: 700 }`. */
function tally(answers: LoopbackResponse[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

/** A 4-digit PIN that is not the right one, different for each guess. */
const wrongPin = (i: number) => String(i % 10_000).padStart(4, '0') === PIN ? '9999' : String(i % 10_000).padStart(4, '0')

/** The headers of an answer but its `date`, which only says when it was written. */
function headersBesidesDate(answer: LoopbackResponse) {
  const { date: _date, ...rest } = answer.headers
  return rest
}

const cookieNamed = (answer: LoopbackResponse, name: string) => answer.cookies.find(cookie => cookie.startsWith(`${name}=`))

// One instance counting in memory, and two instances sharing one Redis: the crowd's guesses go to
// both in turn and the budget is still one.
describe.each(['memory', 'redis'] as const)('the gallery PIN\'s hourly budget for the whole event (%s store)', (store) => {
  const clock = movableClock()
  let redis: TestRedis | undefined
  let servers: TestServer[] = []
  let adminCookie = ''

  beforeAll(async () => {
    redis = store === 'redis' ? await startRedis() : undefined
    const env = { TEST_CLOCK_FILE: clock.file, ...redis?.env }
    servers = store === 'redis' ? [await startServer(env), await startServer(env)] : [await startServer(env)]
    for (const server of servers) {
      const cookie = await login(server.url)
      const set = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { galleryPin: PIN }, cookie })
      expect(set.status).toBe(200)
    }
    adminCookie = await login(servers[0]!.url)
  })
  afterAll(async () => {
    for (const server of servers) await server.stop()
    await redis?.stop()
  })

  /** The instance the i-th request goes to. */
  const base = (i: number) => servers[i % servers.length]!.url
  const unlock = (i: number, from: string, pin: string, cookie?: string) =>
    fromAddress(base(i), '/api/gallery/unlock', { from, method: 'POST', json: { pin }, cookie })
  const pinGuesses = async () => (await api(servers[0]!.url, '/api/admin/event/pin-guesses', { cookie: adminCookie })).body
  /** The i-th address of a crowd: one of 127.<block>.0.0/16. */
  const crowd = (block: number, i: number) => `127.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`

  let galleryCookie = ''
  let guestCookie = ''

  it('300 addresses × 3 wrong PINs at once: exactly 200 are checked (403), 700 × 429; a new browser\'s right PIN is then refused byte for byte as a wrong one', async () => {
    clock.set(T0)
    // A guest who opened the gallery before the crowd came (a right PIN is no guess: it leaves the budget whole).
    const before = await unlock(0, '127.0.0.2', PIN)
    expect(before.status).toBe(204)
    galleryCookie = cookieNamed(before, 'em_gallery')!
    guestCookie = cookieNamed(before, 'em_guest')!
    expect(galleryCookie).toMatch(/^em_gallery=[\w-]+$/)
    expect(guestCookie).toMatch(/^em_guest=[\w-]{22}\.[\w-]+$/)
    expect(await pinGuesses()).toEqual({ wrongLastHour: 0, perHour: 200, spentUntil: null })

    const answers = await inParallel(900, 48, i => unlock(i, crowd(1, i % 300), wrongPin(i)))
    expect(tally(answers)).toEqual({ 403: 200, 429: 700 })
    for (const answer of answers) {
      if (answer.status === 403) expect(answer.body.data).toEqual({ code: 'GALLERY_PIN_INVALID' })
      else {
        expect(answer.body.data).toEqual({ code: 'RATE_LIMITED', retryAfter: 3600 })
        expect(answer.headers['retry-after']).toBe('3600')
      }
      expect(answer.cookies).toEqual([])
    }
    expect(await pinGuesses()).toEqual({ wrongLastHour: 200, perHour: 200, spentUntil: new Date(T0 + HOUR).toISOString() })

    // Two new browsers at new addresses, one with the right PIN, one with a wrong one, on each instance.
    for (let i = 0; i < servers.length; i++) {
      const right = await unlock(i, `127.0.3.${i + 1}`, PIN)
      const wrong = await unlock(i, `127.0.3.${i + 101}`, '0000')
      expect(right.status).toBe(429)
      expect(right.text).toBe(wrong.text)
      expect(headersBesidesDate(right)).toEqual(headersBesidesDate(wrong))
      expect(right.headers['retry-after']).toBe('3600')
      expect(right.cookies).toEqual([])
    }
  })

  it('while the budget is spent, a browser that unlocked before still sees the gallery on every instance; its guest cookie gets it past no budget', async () => {
    for (let i = 0; i < servers.length; i++) {
      const gallery = await fromAddress(base(i), '/api/gallery', { from: '127.0.0.2', cookie: galleryCookie })
      expect(gallery.status).toBe(200)
      expect(gallery.body.items).toEqual([])
    }
    const again = await unlock(0, '127.0.0.2', PIN, guestCookie)
    expect([again.status, again.body.data]).toEqual([429, { code: 'RATE_LIMITED', retryAfter: 3600 }])
    // Without the cookie the gallery stays shut.
    expect((await fromAddress(base(0), '/api/gallery', { from: '127.0.0.2' })).status).toBe(401)
  })

  it('the window slides: never refilled at once, each guess checked again only an hour after the one it replaces', async () => {
    // A second before the hour: still spent.
    clock.set(T0 + HOUR - 1000)
    const early = await unlock(0, '127.0.4.1', wrongPin(1))
    expect([early.status, early.headers['retry-after']]).toEqual([429, '1'])

    // The hour is over: the 200 guesses of T0 have left. 100 now…
    clock.set(T0 + HOUR)
    expect(await pinGuesses()).toEqual({ wrongLastHour: 0, perHour: 200, spentUntil: null })
    expect(tally(await inParallel(100, 48, i => unlock(i, crowd(5, i), wrongPin(i))))).toEqual({ 403: 100 })

    // …then half an hour later only 100 more: a bucket refilling 200 an hour would let 200 through.
    clock.set(T0 + HOUR + 30 * MINUTE)
    const half = await inParallel(150, 48, i => unlock(i, crowd(6, i), wrongPin(i)))
    expect(tally(half)).toEqual({ 403: 100, 429: 50 })
    expect(half.find(answer => answer.status === 429)!.headers['retry-after']).toBe(String(30 * 60))
    expect(await pinGuesses()).toEqual({ wrongLastHour: 200, perHour: 200, spentUntil: new Date(T0 + 2 * HOUR).toISOString() })

    // At T0 + 2 h the first hundred leave, the later hundred stay: a new browser's right PIN opens
    // the gallery (and takes no place), then exactly 100 wrong ones are checked.
    clock.set(T0 + 2 * HOUR)
    const right = await unlock(1, '127.0.7.1', PIN)
    expect(right.status).toBe(204)
    expect(cookieNamed(right, 'em_gallery')).toBe(galleryCookie)
    expect(tally(await inParallel(120, 48, i => unlock(i, crowd(8, i), wrongPin(i))))).toEqual({ 403: 100, 429: 20 })
  })
})

// Listening on every address, IPv6 and IPv4 alike (a dual-stack socket sees 127.0.0.N as
// ::ffff:127.0.0.N), behind a trusted proxy for the IPv6 blocks the loopback does not have.
describe('one address for many guests (a venue\'s NAT), and IPv6 clients by /64', () => {
  const clock = movableClock()
  let server: TestServer
  let adminCookie = ''

  beforeAll(async () => {
    server = await startServer({ TEST_CLOCK_FILE: clock.file, HOST: '::', TRUST_PROXY: 'x-forwarded-for' })
    adminCookie = await login(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const setPin = async (galleryPin: string) => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { galleryPin }, cookie: adminCookie })).status).toBe(200)
  }
  const unlock = (from: string, pin: string, cookie?: string, headers?: Record<string, string>) =>
    fromAddress(server.url, '/api/gallery/unlock', { from, method: 'POST', json: { pin }, cookie, headers })
  /** A phone's guest device cookie, as any visit to "my photos" (or a first upload) sets it. */
  const guestCookieFrom = async (from: string) => {
    const mine = await fromAddress(server.url, '/api/uploads/mine', { from })
    expect(mine.status).toBe(200)
    return mine.cookies.find(cookie => cookie.startsWith('em_guest='))!
  }

  it('10 wrong PINs from one address lock it for browsers without a cookie, the right PIN included; a phone with a clean guest cookie, or one that unlocked before, gets in from that address', async () => {
    const nat = '127.0.5.1'
    await setPin(PIN)
    const earlier = await unlock(nat, PIN)
    expect(earlier.status).toBe(204)
    const earlierCookies = earlier.cookies.join('; ')
    // The couple changes the PIN: the earlier browser's gallery cookie opens nothing now.
    await setPin('7310')
    expect((await fromAddress(server.url, '/api/gallery', { from: nat, cookie: earlierCookies })).status).toBe(401)

    const wrongs = await inParallel(10, 10, i => unlock(nat, wrongPin(i)))
    expect(tally(wrongs)).toEqual({ 403: 10 })
    const locked = await unlock(nat, '7310')
    expect([locked.status, locked.body.data.code]).toEqual([429, 'RATE_LIMITED'])
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1)

    // A guest at the same table, whose phone has a guest cookie and no wrong guess on it.
    const phone = await guestCookieFrom(nat)
    const opened = await unlock(nat, '7310', phone)
    expect(opened.status).toBe(204)
    const galleryCookie = cookieNamed(opened, 'em_gallery')!
    expect((await fromAddress(server.url, '/api/gallery', { from: nat, cookie: galleryCookie })).status).toBe(200)
    // The browser that typed the old PIN before (it kept its guest cookie) types the new one.
    expect((await unlock(nat, '7310', earlierCookies)).status).toBe(204)
  })

  it('a guest cookie has a record of its own: 5 wrong PINs and it is refused whatever it types, while a clean one at the same address passes', async () => {
    const nat = '127.0.5.2'
    await setPin('7310')
    const guesser = await guestCookieFrom(nat)
    expect(tally(await inParallel(5, 5, i => unlock(nat, wrongPin(i), guesser)))).toEqual({ 403: 5 })
    const refused = await unlock(nat, '7310', guesser)
    expect([refused.status, refused.body.data.code]).toEqual([429, 'RATE_LIMITED'])
    expect((await unlock(nat, '7310', await guestCookieFrom(nat))).status).toBe(204)
    // Its wrong guesses were its own: the address itself is not locked.
    expect((await unlock(nat, '7310')).status).toBe(204)
    // A forged guest cookie is no cookie: counted by the address.
    expect((await unlock(nat, '7310', 'em_guest=AAAAAAAAAAAAAAAAAAAAAA.forged')).status).toBe(204)
  })

  it('IPv6 clients share one limit per /64: new addresses in the block get no new guesses, another block does', async () => {
    await setPin('7310')
    const behindProxy = (address: string) => ({ 'x-forwarded-for': address })
    const wrongs = await inParallel(10, 10, i => unlock('127.0.0.1', wrongPin(i), undefined, behindProxy(`2001:db8:7:1::${(i + 1).toString(16)}`)))
    expect(tally(wrongs)).toEqual({ 403: 10 })
    const sameBlock = await unlock('127.0.0.1', '7310', undefined, behindProxy('2001:db8:7:1:ffff:ffff:ffff:fffe'))
    expect([sameBlock.status, sameBlock.body.data.code]).toEqual([429, 'RATE_LIMITED'])
    expect((await unlock('127.0.0.1', '7310', undefined, behindProxy('2001:db8:7:2::1'))).status).toBe(204)
  })

  it('over ::1 itself: the socket\'s IPv6 address is counted, and 127.0.0.N beside it separately', async () => {
    await setPin('7310')
    const v6 = (pin: string) => fromAddress(`http://[::1]:${server.port}`, '/api/gallery/unlock', { from: '::1', method: 'POST', json: { pin } })
    const wrongs = [] as LoopbackResponse[]
    for (let i = 0; i < 10; i++) wrongs.push(await v6(wrongPin(i)))
    expect(tally(wrongs)).toEqual({ 403: 10 })
    expect((await v6('7310')).status).toBe(429)
    expect((await unlock('127.0.5.3', '7310')).status).toBe(204)
  })
})
