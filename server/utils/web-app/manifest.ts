import { BRAND_COLOUR, PAPER_COLOUR } from '#shared/brand'
import { ptBR } from '#shared/messages/pt-BR'
import { slideshowPathOf } from '#shared/slideshow'

/** Where the venue screen's app starts: the slideshow with its default options. */
export const SLIDESHOW_START_URL = slideshowPathOf()

const ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
]

/** A name that fits under a home-screen icon (about 12 characters). */
export function shortName(coupleNames: string): string {
  const names = coupleNames.trim()
  if (!names) return 'Fotos'
  return names.length <= 12 ? names : `${names.slice(0, 11).trimEnd()}…`
}

/**
 * The web app manifest, named after the event: installed on a guest's phone it reads as the
 * couple's names; its shortcut opens the venue screen (the slideshow, whose own fullscreen
 * button and `F` key fill the screen; a TV or tablet installs it from there).
 */
export function webAppManifest(coupleNames: string) {
  const names = coupleNames.trim()
  return {
    id: '/',
    name: names ? `${ptBR.siteTitle} · ${names}` : ptBR.siteTitle,
    short_name: shortName(names),
    description: ptBR.siteTitle,
    lang: 'pt-BR',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    // The invitation's wine red bar and warm paper page.
    theme_color: BRAND_COLOUR,
    background_color: PAPER_COLOUR,
    icons: ICONS,
    shortcuts: [
      { name: ptBR.slideshow.label, short_name: 'Telão', url: SLIDESHOW_START_URL, icons: [ICONS[0]] },
    ],
  }
}

/**
 * The venue screen's own manifest (linked from the slideshow's head): installed from there, it
 * is an app of its own that opens the slideshow fullscreen, with nothing of the browser around it.
 */
export function slideshowManifest(coupleNames: string) {
  const guest = webAppManifest(coupleNames)
  return {
    ...guest,
    id: SLIDESHOW_START_URL,
    name: `${ptBR.slideshow.label} · ${coupleNames.trim() || ptBR.siteTitle}`,
    short_name: 'Telão',
    start_url: SLIDESHOW_START_URL,
    display: 'fullscreen',
    display_override: ['fullscreen', 'standalone'],
    orientation: 'landscape',
    theme_color: '#000000',
    background_color: '#000000',
    shortcuts: [],
  }
}
