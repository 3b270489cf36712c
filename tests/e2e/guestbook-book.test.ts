import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { lavfi, streamMedia, tone } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { seedPhoto, setModeration } from '../support/seed'
import { uploadFile } from '../support/uploads'

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString()
}
function pdfImages(pdf: Buffer): number {
  // pdfimages lists one line per image after two header lines.
  return execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString().trim().split('\n').length - 2
}

// The book is drawn from the database's messages (a voice by its length, not its bytes): one driver
// (the local disk). Spoken messages' storage is proven on both drivers by guestbook-audio.test.ts.
describe('the guestbook as a printed book', () => {
  const server = useTestServer({ admin: true })
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })

  it('an A5 PDF: title page with the couple and date, every approved message and author, a voice as "Recado de voz de …, 0:0N", no rejected one, emoji left out', async () => {
    await admin('/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12' } })
    await setModeration(server.url, server.cookie, 'pre')
    const post = async (author: string, text: string) => (await api(server.url, '/api/guestbook', { method: 'POST', json: { author, text } })).body.id as string
    const kept = [
      { author: 'Tia Conceição', text: 'Felicidades, meus queridos! Que a vida seja leve.' },
      { author: 'Primo Zé', text: 'Viva os noivos 🎉🥂 e muita dança' },
      { author: '', text: 'Um recado sem nome' },
    ]
    const ids = []
    for (const message of kept) ids.push(await post(message.author, message.text))
    const rejected = await post('Penetra', 'Recado recusado que não vai ao livro')
    const bytes = streamMedia(lavfi(tone(2)), ['-c:a', 'libopus', '-f', 'webm'])
    const { init: voice } = await uploadFile(server.url, bytes, { contentType: 'audio/webm', size: bytes.length, durationSec: 2, author: 'Vovó Lurdes', message: '' })
    await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids: [...ids, voice.id], action: 'approve' } })
    await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids: [rejected], action: 'reject' } })
    await setModeration(server.url, server.cookie, 'post')
    await seedPhoto(server.url, { author: 'Tia Conceição' })

    expect((await api(server.url, '/api/admin/guestbook.pdf')).status).toBe(401)
    const response = await fetch(`${server.url}/api/admin/guestbook.pdf`, { headers: { cookie: server.cookie } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const pdf = Buffer.from(await response.arrayBuffer())
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString()
    expect(info).toMatch(/Page size:\s+419\.53 x 595\.28 pts/)
    // The title page, then all four messages on one page.
    expect(info).toMatch(/Pages:\s+2/)

    const text = pdfText(pdf).replace(/\s+/g, ' ')
    expect(text).toContain('Livro de recados')
    expect(text).toContain('Ana & Bruno')
    expect(text).toContain('12/12/2026')
    for (const message of kept) expect(text).toContain(message.text.replace(/ 🎉🥂/, ''))
    expect(text).toContain('Viva os noivos e muita dança')
    expect(text).toContain('— Tia Conceição')
    expect(text).toContain('— Primo Zé')
    expect(text).toContain('— Um convidado')
    expect(text).toContain('Recado de voz de Vovó Lurdes, 0:02')
    expect(text).not.toContain('Penetra')
    expect(text).not.toContain('recusado')
    // The aunt's photo beside her message.
    expect(pdfImages(pdf)).toBe(1)
    expect(response.headers.get('content-disposition')).toBe('inline; filename="livro-de-recados.pdf"')

    // The book speaks the event's language, as the QR card does.
    await admin('/api/admin/event', { method: 'PATCH', json: { language: 'en' } })
    try {
      const english = await fetch(`${server.url}/api/admin/guestbook.pdf`, { headers: { cookie: server.cookie } })
      expect(english.headers.get('content-disposition')).toBe('inline; filename="guestbook.pdf"')
      const words = pdfText(Buffer.from(await english.arrayBuffer())).replace(/\s+/g, ' ')
      expect(words).toContain('Guestbook')
      expect(words).toContain('December 12, 2026')
      expect(words).toContain('Voice message from Vovó Lurdes, 0:02')
      expect(words).toContain('— A guest')
      expect(words).not.toContain('Livro de recados')
      expect(words).not.toContain('Recado de voz')
    }
    finally {
      await admin('/api/admin/event', { method: 'PATCH', json: { language: 'pt-BR' } })
    }
  })
})
