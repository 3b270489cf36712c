import { describe, expect, it } from 'vitest'
import { shortName, SLIDESHOW_START_URL, slideshowManifest, webAppManifest } from '../../server/utils/web-app/manifest'

describe('the web app manifest, named after the event', () => {
  it('is installable as Chromium asks: name, start_url, standalone, 192 and 512 icons, a maskable one', () => {
    const manifest = webAppManifest('Ana & Bruno')
    expect(manifest).toMatchObject({ name: 'Fotos do casamento · Ana & Bruno', short_name: 'Ana & Bruno', start_url: '/', scope: '/', display: 'standalone', theme_color: '#7a3e48' })
    expect(manifest.icons.map(icon => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
    expect(manifest.shortcuts).toEqual([expect.objectContaining({ url: SLIDESHOW_START_URL })])
  })

  it('cuts a long name to fit under an icon, and falls back when the couple is not named yet', () => {
    expect(shortName('Maria Eduarda & João Pedro')).toBe('Maria Eduar…')
    expect(shortName('Maria Eduarda & João Pedro').length).toBeLessThanOrEqual(12)
    expect(shortName('  ')).toBe('Fotos')
    expect(webAppManifest('').name).toBe('Fotos do casamento')
  })

  it('speaks the event\'s language', () => {
    expect(webAppManifest('Ana & Bruno', 'en')).toMatchObject({ name: 'Wedding photos · Ana & Bruno', description: 'Wedding photos', lang: 'en' })
    expect(webAppManifest('', 'es')).toMatchObject({ name: 'Fotos de la boda', lang: 'es' })
    expect(slideshowManifest('Ana & Bruno', 'en')).toMatchObject({ name: 'Photo slideshow · Ana & Bruno', short_name: 'Screen' })
  })

  it('gives the venue screen an app of its own that opens the slideshow fullscreen', () => {
    expect(slideshowManifest('Ana & Bruno')).toMatchObject({ id: SLIDESHOW_START_URL, start_url: SLIDESHOW_START_URL, display: 'fullscreen', short_name: 'Telão', shortcuts: [] })
  })
})
