import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../shared/enums'
import { languageOfAcceptLanguage, pickLanguage } from '../../shared/i18n/locale'
import { adminMessages, guestMessages } from '../../shared/messages'

/** Every leaf of a messages object: its path, and what it is (a text, or a function of n parameters). */
function shapeOf(value: unknown, path = ''): Record<string, string> {
  if (typeof value === 'function') return { [path]: `function/${value.length}` }
  if (Array.isArray(value)) return Object.assign({ [path]: `array/${value.length}` }, ...value.map((item, i) => shapeOf(item, `${path}[${i}]`)))
  if (value && typeof value === 'object') return Object.assign({}, ...Object.entries(value).map(([key, item]) => shapeOf(item, path ? `${path}.${key}` : key)))
  return { [path]: typeof value }
}

describe('every language has every text, with the same parameters', () => {
  for (const [audience, loaders] of [['guest', guestMessages], ['admin', adminMessages]] as const) {
    it(`${audience}: en and es have the keys, kinds and arities of pt-BR`, async () => {
      const reference = shapeOf(await loaders['pt-BR']())
      for (const language of LANGUAGES) {
        const messages = await loaders[language]()
        expect(shapeOf(messages), language).toEqual(reference)
        expect(messages.locale).toBe(language)
      }
    })
  }

  it('the functions of each language give text, and not the Portuguese one', async () => {
    const [pt, en, es] = await Promise.all(LANGUAGES.map(language => guestMessages[language]()))
    expect(en!.upload.successCount(3)).toBe('3 files sent. Thank you so much!')
    expect(es!.upload.successCount(1, 2)).toBe('1 archivo enviado, 2 ya estaban en la galería. ¡Muchas gracias!')
    expect(pt!.upload.successCount(2)).toBe('2 arquivos enviados. Muito obrigado!')
    expect(en!.refusal.guestLimit(10)).toBe('Each guest can send up to 10 photos, and this phone has reached that.')
    const evening = new Date(2026, 11, 12, 20, 0).getTime()
    expect(en!.gate.reveal(new Date(2026, 11, 12, 22, 30).toISOString(), evening)).toBe('The photos will be revealed today at 10:30 PM')
    expect(es!.gate.reveal(new Date(2026, 11, 13, 1, 0).toISOString(), evening)).toBe('Las fotos se revelarán mañana a la 1:00')
    expect(pt!.gate.reveal(new Date(2026, 11, 14, 10, 30).toISOString(), evening)).toBe('As fotos serão reveladas em 14 de dezembro às 10h30')
    expect(en!.format.bytes(3.2 * 1024 * 1024)).toBe('3.2 MB')
    expect(pt!.format.bytes(3.2 * 1024 * 1024)).toBe('3,2 MB')
    expect(en!.format.eventDate('2026-12-12')).toBe('December 12, 2026')
    expect(es!.format.eventDate('2026-12-12')).toBe('12 de diciembre de 2026')
  })
})

describe('which language a page speaks', () => {
  it('reads Accept-Language by weight, by primary subtag, and ignores what we do not speak', () => {
    expect(languageOfAcceptLanguage('en-GB,en;q=0.9')).toBe('en')
    expect(languageOfAcceptLanguage('fr-FR,fr;q=0.9,es;q=0.5')).toBe('es')
    expect(languageOfAcceptLanguage('pt-PT')).toBe('pt-BR')
    expect(languageOfAcceptLanguage('es;q=0.4,en;q=0.8')).toBe('en')
    expect(languageOfAcceptLanguage('en;q=0,fr')).toBeNull()
    expect(languageOfAcceptLanguage('fr')).toBeNull()
    expect(languageOfAcceptLanguage('')).toBeNull()
  })

  it('takes the device\'s choice, then ?lang, then the browser, then the event', async () => {
    const event = () => 'es' as const
    expect(await pickLanguage({ chosen: 'en', query: 'es', acceptLanguage: 'es', eventLanguage: event })).toBe('en')
    expect(await pickLanguage({ chosen: 'xx', query: 'es', acceptLanguage: 'en' })).toBe('es')
    expect(await pickLanguage({ query: 'fr', acceptLanguage: 'en', eventLanguage: event })).toBe('en')
    expect(await pickLanguage({ acceptLanguage: 'fr', eventLanguage: event })).toBe('es')
    expect(await pickLanguage({ acceptLanguage: 'fr', eventLanguage: () => null })).toBe('pt-BR')
  })

  it('asks for the event only when nothing before it decides', async () => {
    let asked = 0
    await pickLanguage({ acceptLanguage: 'en', eventLanguage: () => (asked++, 'es') })
    expect(asked).toBe(0)
  })

  it('lets the venue screen follow the address or the event, not the device', async () => {
    expect(await pickLanguage({ room: true, chosen: 'en', acceptLanguage: 'en', eventLanguage: () => 'es' })).toBe('es')
    expect(await pickLanguage({ room: true, chosen: 'en', query: 'pt-BR', eventLanguage: () => 'es' })).toBe('pt-BR')
  })
})
