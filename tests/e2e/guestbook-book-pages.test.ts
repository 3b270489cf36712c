import { execFileSync } from 'node:child_process'
import { beforeEach, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { fetchFresh } from '../support/http'
import { seedGuestbookMessages } from '../support/seed'

/** Each page's text, words joined by single spaces (pdftotext ends every page with a form feed). */
function pageTexts(pdf: Buffer): string[] {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString().split('\f').slice(0, -1).map(page => page.replace(/\s+/g, ' ').trim())
}
function pageCount(pdf: Buffer): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString())![1])
}
/** The pages (1-based) whose text holds `words`, whole. */
function pagesHolding(pages: string[], words: string): number[] {
  return pages.flatMap((page, index) => (page.includes(words.replace(/\s+/g, ' ')) ? [index + 1] : []))
}

const short = (index: number) => `Recado número ${index}: que a vida de vocês seja leve, cheia de música e de amigos por perto.`

describe('the printed guestbook sets messages several to a page, never splitting one', () => {
  const server = useTestServer({ admin: true, db: true })
  const book = async () => {
    const response = await fetchFresh(`${server.url}/api/admin/guestbook.pdf`, { headers: { cookie: server.cookie } })
    expect(response.status).toBe(200)
    return Buffer.from(await response.arrayBuffer())
  }
  beforeEach(async () => {
    await server.db.execute('DELETE FROM guestbook_messages')
  })

  it.each([[8, 2], [12, 3]])('%i short messages: the title page and then %i pages, each message whole on one page, oldest first', async (count, pagesAfterTitle) => {
    const seeded = await seedGuestbookMessages(server.db, count, { textOf: short })
    const pdf = await book()
    // At most four pages after the title for twelve; before, each message had a page of its own.
    expect(pageCount(pdf)).toBe(1 + pagesAfterTitle)
    const pages = pageTexts(pdf)
    expect(pages[0]).toContain('Livro de recados')
    let lastPage = 2
    for (const message of seeded) {
      const holding = pagesHolding(pages, `${message.text} — ${message.author}`)
      expect(holding, message.text).toHaveLength(1)
      expect(holding[0]).toBeGreaterThanOrEqual(lastPage)
      lastPage = holding[0]!
    }
    // Several to a page: the pages after the title hold more than one message each, and the number sits at their foot.
    for (let page = 2; page <= 1 + pagesAfterTitle; page++) {
      expect(pages[page - 1]!.match(/— Convidado \d+/g)!.length, `page ${page}`).toBeGreaterThan(1)
      expect(pages[page - 1]!.endsWith(String(page)), `page ${page}`).toBe(true)
    }
  })

  it('a long message that does not fit in what is left of a page starts the next one, whole', async () => {
    const long = `Queridos, ${'que a vida a dois seja feita de manhãs tranquilas, de viagens sem pressa e de muitas risadas à mesa com a família. '.repeat(6)}Amamos vocês!`
    expect(long.length).toBeLessThanOrEqual(1000)
    const seeded = await seedGuestbookMessages(server.db, 6, { textOf: index => (index === 4 ? long : short(index)) })
    const pages = pageTexts(await book())
    const pageOf = seeded.map(message => pagesHolding(pages, `${message.text} — ${message.author}`))
    for (const holding of pageOf) expect(holding).toHaveLength(1)
    expect(pageOf.map(holding => holding[0])).toEqual([2, 2, 2, 2, 3, 3])
  })

  it('a message too long for any page starts on a fresh page and runs on over the next; the next message follows it', async () => {
    const lines = Array.from({ length: 40 }, (_, index) => `linha ${index + 1} de um recado que não cabe numa página`)
    const seeded = await seedGuestbookMessages(server.db, 3, { textOf: index => (index === 1 ? lines.join('\n') : short(index)) })
    const pdf = await book()
    const pages = pageTexts(pdf)
    expect(pageCount(pdf)).toBe(4)
    expect(pagesHolding(pages, `${seeded[0]!.text} — ${seeded[0]!.author}`)).toEqual([2])
    // The long one opens page 3, alone, and ends on page 4 with its author, before the last message.
    expect(pages[2]!.startsWith('linha 1 de um recado')).toBe(true)
    expect(pages[2]).not.toContain(seeded[0]!.text)
    const lineOnPage = lines.map(line => pagesHolding(pages, line))
    for (const holding of lineOnPage) expect(holding).toHaveLength(1)
    const order = lineOnPage.map(holding => holding[0])
    expect(order).toEqual([...order].sort((a, b) => a! - b!))
    expect([order[0], order.at(-1)]).toEqual([3, 4])
    expect(pages[3]!.indexOf('linha 40 de um recado')).toBeLessThan(pages[3]!.indexOf(`— ${seeded[1]!.author}`))
    expect(pagesHolding(pages, `${seeded[2]!.text} — ${seeded[2]!.author}`)).toEqual([4])
  })
})
