import { BRAND_COLOUR, PAPER_COLOUR } from '#shared/brand'
import type { Language } from '#shared/enums'
import { en } from '#shared/messages/en'
import { es } from '#shared/messages/es'
import { ptBR, type Messages } from '#shared/messages/pt-BR'
import { slideshowPathOf } from '#shared/slideshow'

/** The server names the app in the event's language; all three are small enough to keep at hand. */
const MESSAGES: Record<Language, Messages> = { 'pt-BR': ptBR, en, es }

/** Where the venue screen's app starts: the slideshow with its default options. */
export const SLIDESHOW_START_URL = slideshowPathOf()

const ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
]

/** A name that fits under a home-screen icon (about 12 characters). */
export function shortName(coupleNames: string, language: Language = 'pt-BR'): string {
  const names = coupleNames.trim()
  if (!names) return MESSAGES[language].slideshow.appShortName
  return names.length <= 12 ? names : `${names.slice(0, 11).trimEnd()}…`
}

/**
 * The web app manifest, named after the event: installed on a guest's phone it reads as the
 * couple's names; its shortcut opens the venue screen (the slideshow, whose own fullscreen
 * button and `F` key fill the screen; a TV or tablet installs it from there).
 */
export function webAppManifest(coupleNames: string, language: Language = 'pt-BR') {
  const t = MESSAGES[language]
  const names = coupleNames.trim()
  return {
    id: '/',
    name: names ? `${t.siteTitle} · ${names}` : t.siteTitle,
    short_name: shortName(names, language),
    description: t.siteTitle,
    lang: language,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    // The invitation's wine red bar and warm paper page.
    theme_color: BRAND_COLOUR,
    background_color: PAPER_COLOUR,
    icons: ICONS,
    shortcuts: [
      { name: t.slideshow.label, short_name: t.slideshow.screenShortName, url: SLIDESHOW_START_URL, icons: [ICONS[0]] },
    ],
  }
}

/**
 * The venue screen's own manifest (linked from the slideshow's head): installed from there, it
 * is an app of its own that opens the slideshow fullscreen, with nothing of the browser around it.
 */
export function slideshowManifest(coupleNames: string, language: Language = 'pt-BR') {
  const t = MESSAGES[language]
  const guest = webAppManifest(coupleNames, language)
  return {
    ...guest,
    id: SLIDESHOW_START_URL,
    name: `${t.slideshow.label} · ${coupleNames.trim() || t.siteTitle}`,
    short_name: t.slideshow.screenShortName,
    start_url: SLIDESHOW_START_URL,
    display: 'fullscreen',
    display_override: ['fullscreen', 'standalone'],
    orientation: 'landscape',
    theme_color: '#000000',
    background_color: '#000000',
    shortcuts: [],
  }
}
