import { describe, expect, it } from 'vitest'
import { acceptWeight, wantsErrorPage } from '../../server/utils/http/error-page'

describe('Accept weights', () => {
  it('takes the type\'s own entry first, then type/*, then */*, else 0', () => {
    const header = 'text/html;q=0.5, text/*;q=0.3, */*;q=0.1'
    expect(acceptWeight(header, 'text/html')).toBe(0.5)
    expect(acceptWeight(header, 'text/plain')).toBe(0.3)
    expect(acceptWeight(header, 'application/json')).toBe(0.1)
    expect(acceptWeight('image/webp', 'application/json')).toBe(0)
    expect(acceptWeight(undefined, 'application/json')).toBe(1)
    expect(acceptWeight('Application/JSON ; Q=0.7', 'application/json')).toBe(0.7)
    expect(acceptWeight('application/json;q=x', 'application/json')).toBe(0)
  })
})

describe('which media errors get the site\'s error page', () => {
  const browserNavigation = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

  it('a navigation does, unless it asks for JSON above HTML', () => {
    expect(wantsErrorPage(browserNavigation, 'document')).toBe(true)
    expect(wantsErrorPage(browserNavigation, undefined)).toBe(true)
    expect(wantsErrorPage('application/json', 'document')).toBe(false)
  })

  it('elements, fetches and clients asking for JSON do not', () => {
    expect(wantsErrorPage('image/avif,image/webp,*/*;q=0.8', 'image')).toBe(false)
    expect(wantsErrorPage('*/*', 'video')).toBe(false)
    expect(wantsErrorPage('text/html', 'empty')).toBe(false)
    expect(wantsErrorPage('application/json', undefined)).toBe(false)
    expect(wantsErrorPage('application/json;q=1, text/html;q=0.5', undefined)).toBe(false)
    expect(wantsErrorPage('*/*', undefined)).toBe(false)
    expect(wantsErrorPage(undefined, undefined)).toBe(false)
  })
})
