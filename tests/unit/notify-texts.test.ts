import { describe, expect, it } from 'vitest'
import { isForbiddenAddress } from '../../shared/notify/forbidden-address'
import { notifyUrlSchema } from '../../shared/schemas/notify'
import { headerText, notifyRequest, signature } from '../../server/utils/notify/formats'
import { notificationTexts } from '../../server/utils/notify/texts'

describe('the addresses a notification never goes to', () => {
  it.each([
    '169.254.169.254', '169.254.0.1', '169.254.255.255', 'fe80::1', '[fe80::1]', 'FE80::abcd:1', 'febf:ffff::1',
    'fe80::1%eth0', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '0:0:0:0:0:ffff:a9fe:1',
  ])('%s is link-local: refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })
  it.each([
    '127.0.0.1', '::1', '[::1]', '10.0.0.1', '169.253.255.255', '169.255.0.1', 'fec0::1', 'fe7f::1', '::ffff:127.0.0.1', 'ntfy.sh', '2001:db8::1',
  ])('%s is not: allowed', (address) => {
    expect(isForbiddenAddress(address)).toBe(false)
  })
  it('the PATCH schema refuses a literal link-local host, whatever form the URL spells it in', () => {
    for (const url of ['http://169.254.169.254/', 'http://[fe80::1]:80/', 'http://2852039166/', 'http://0xa9fea9fe/', 'http://[::ffff:169.254.169.254]/']) {
      expect(notifyUrlSchema.safeParse(url).success, url).toBe(false)
    }
    expect(notifyUrlSchema.safeParse('https://ntfy.sh/casamento').success).toBe(true)
    expect(notifyUrlSchema.safeParse('http://127.0.0.1:8080/hook').success).toBe(true)
  })
})

describe('what the couple reads', () => {
  const items = (kind: 'photo' | 'video' | 'audio' | 'message' | 'comment', count: number, pending = true) =>
    Array.from({ length: count }, () => ({ kind, pending }))

  it('says the batch in the event\'s language, with plural forms', () => {
    expect(notificationTexts('pt-BR', '', items('photo', 3)).body).toBe('3 novas fotos esperam aprovação')
    expect(notificationTexts('pt-BR', '', items('photo', 1)).body).toBe('1 nova foto espera aprovação')
    expect(notificationTexts('en', '', items('photo', 3)).body).toBe('3 new photos await approval')
    expect(notificationTexts('en', '', items('photo', 1)).body).toBe('1 new photo awaits approval')
    expect(notificationTexts('es', '', items('photo', 3)).body).toBe('3 fotos nuevas esperan aprobación')
    expect(notificationTexts('es', '', items('video', 1)).body).toBe('1 video nuevo espera aprobación')
    expect(notificationTexts('pt-BR', '', [...items('photo', 2), ...items('audio', 1), ...items('comment', 2)]).body)
      .toBe('2 novas fotos, 1 novo recado de voz e 2 novos comentários esperam aprovação')
    expect(notificationTexts('en', '', [...items('message', 2, false), ...items('video', 1, false)]).body).toBe('1 new video and 2 new messages arrived')
    expect(notificationTexts('es', '', items('message', 1, false)).body).toBe('1 mensaje nuevo llegó')
  })

  it('titles it with the couple\'s names', () => {
    expect(notificationTexts('pt-BR', 'Ana & João', items('photo', 1)).title).toBe('Ana & João: novidades')
    expect(notificationTexts('es', '', items('photo', 1)).title).toBe('Novedades del evento')
  })

  it('encodes a header that is not ASCII as one RFC 2047 word, and leaves ASCII alone', () => {
    expect(headerText('Ana & Joe: what\'s new')).toBe('Ana & Joe: what\'s new')
    expect(headerText('Ana & João: novidades')).toBe(`=?UTF-8?B?${Buffer.from('Ana & João: novidades').toString('base64')}?=`)
  })

  it('signs the exact JSON body it sends', () => {
    const { headers, body } = notifyRequest('json', 'secret', { pending: 1, items: [{ id: 'a', kind: 'photo', author: 'Zé', thumbUrl: null }], title: 't', body: 'b', adminUrl: 'https://x/admin' })
    expect(JSON.parse(body)).toEqual({ type: 'event-media.new', pending: 1, items: [{ id: 'a', kind: 'photo', author: 'Zé', thumbUrl: null }], adminUrl: 'https://x/admin' })
    expect(headers['X-Event-Media-Signature']).toBe(signature('secret', body))
    expect(signature('secret', body)).toMatch(/^sha256=[\da-f]{64}$/)
  })
})
