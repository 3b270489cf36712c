import { execFileSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api, fetchFresh } from '../support/http'
import { seedGuestbookMessages, type SeededMessage } from '../support/seed'
import { unzip } from '../support/zip'

/** More than either export ever held before (the book stopped at 5,000, guestbook.csv at 20,000). */
const MESSAGES = 20_666
const LONG = 240_000

describe('the guestbook\'s exports hold every approved message, however many', () => {
  const server = useTestServer({ admin: true, db: true })
  let seeded: SeededMessage[]
  const book = () => fetchFresh(`${server.url}/api/admin/guestbook.pdf`, { headers: { cookie: server.cookie } })

  beforeAll(async () => {
    seeded = await seedGuestbookMessages(server.db, MESSAGES)
  }, LONG)

  it('the book holds all 20,666, oldest first, the earliest included', async () => {
    const response = await book()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const pdf = Buffer.from(await response.arrayBuffer())
    const text = execFileSync('pdftotext', ['-', '-'], { input: pdf, maxBuffer: 1 << 30 }).toString().replace(/\s+/g, ' ')
    const authors = text.match(/— Convidado \d+/g)!.map(line => Number(line.slice('— Convidado '.length)))
    expect(authors).toEqual(seeded.map((_, index) => index))
    expect(text).toContain(`${seeded[0]!.text} — ${seeded[0]!.author}`)
    expect(text).toContain(`${seeded.at(-1)!.text} — ${seeded.at(-1)!.author}`)
  }, LONG)

  it('guestbook.csv in the export holds all 20,666, oldest first, byte for byte what was written', async () => {
    const response = await fetchFresh(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie } })
    expect(response.status).toBe(200)
    const entries = await unzip(Buffer.from(await response.arrayBuffer()))
    // comments.csv (the photos' comments, none here) comes first, then the guestbook.
    expect(entries.map(entry => entry.name)).toEqual(['comments.csv', 'guestbook.csv', 'manifest.csv'])
    const lines = entries[1]!.bytes.toString('utf8').split('\r\n')
    expect(lines.shift()).toBe('\uFEFFid,tipo,autor,recado,duração (s),enviado em,arquivo')
    expect(lines.pop()).toBe('')
    expect(lines).toEqual(seeded.map(message => [message.id, 'text', message.author, message.text, '', new Date(message.createdAt).toISOString(), ''].join(',')))
  }, LONG)

  it('one book is made at a time: a second request meanwhile is 429 RATE_LIMITED with retry-after, and the next one after it is made', async () => {
    const first = await book()
    expect(first.status).toBe(200)
    // The first answer's head is out: the book is being set, page after page.
    const second = await api(server.url, '/api/admin/guestbook.pdf', { cookie: server.cookie })
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('10')
    expect(second.body.data).toEqual({ code: 'RATE_LIMITED', retryAfter: 10 })
    const pdf = Buffer.from(await first.arrayBuffer())
    expect(pdf.subarray(-6).toString()).toMatch(/%%EOF/)

    const third = await book()
    expect(third.status).toBe(200)
    // A client that walks away frees the place too.
    await third.body!.cancel()
    const deadline = Date.now() + 20_000
    let again: Response
    for (;;) {
      again = await book()
      if (again.status === 200 || Date.now() > deadline) break
      expect(again.status).toBe(429)
      await again.arrayBuffer()
      await new Promise(resolve => setTimeout(resolve, 200))
    }
    expect(again.status).toBe(200)
    await again.body!.cancel()
  }, LONG)
})
