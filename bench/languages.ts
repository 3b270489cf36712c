// What a guest's phone downloads of JavaScript on a first visit of /enviar, per language, this
// build against another (`--before <dir>`, a `.output` built from the commit before languages):
// a guest pays for one language only. Debian's Chromium through playwright-core, gzip as the
// budget says, against the built server. Run: npx tsx bench/languages.ts --before /tmp/before/.output
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../tests/support/chromium'
import { ROOT, startServer } from '../tests/support/server'
import { table, writeSection } from './lib'

const LANGUAGES = ['pt-BR', 'en', 'es'] as const
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
/** A sentence only each language's guest texts hold: a script carrying it is that language's chunk. */
const MARKERS: Record<string, string> = { 'pt-BR': 'Escolher fotos e vídeos', 'en': 'Choose photos and videos', 'es': 'Elegir fotos y videos' }
const GOAL = 100 * 1024
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

interface Visit { js: number, scripts: number, languagesInScripts: string[] }

function beforeOutput(): string | null {
  const at = process.argv.indexOf('--before')
  return at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : null
}

/** One first visit of /enviar from an empty profile whose browser asks for `language`. */
async function visit(browser: Browser, base: string, publicDir: string, language: string): Promise<Visit> {
  const context = await browser.newContext({ ...PHONE, baseURL: base, locale: language })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'accept-encoding': 'gzip' } })
    const scripts = new Map<string, { url: string, wire: number }>()
    cdp.on('Network.responseReceived', (event) => {
      if (event.response.mimeType.includes('javascript')) scripts.set(event.requestId, { url: event.response.url, wire: 0 })
    })
    cdp.on('Network.loadingFinished', (event) => {
      const entry = scripts.get(event.requestId)
      if (entry) entry.wire = event.encodedDataLength
    })
    await page.goto('/enviar', { waitUntil: 'networkidle' })
    await page.locator('main[data-ready]').waitFor()
    const files = [...new Set([...scripts.values()].map(entry => new URL(entry.url).pathname))]
    const text = files.map(path => readFileSync(join(publicDir, path), 'utf8')).join('\n')
    return {
      js: [...scripts.values()].reduce((sum, entry) => sum + entry.wire, 0),
      scripts: files.length,
      languagesInScripts: Object.entries(MARKERS).filter(([, marker]) => text.includes(marker)).map(([code]) => code),
    }
  }
  finally {
    await context.close()
  }
}

async function measure(browser: Browser, output: string) {
  const server = await startServer({}, undefined, join(output, 'server/index.mjs'))
  try {
    const rows: Record<string, Visit> = {}
    for (const language of LANGUAGES) rows[language] = await visit(browser, server.url, join(output, 'public'), language)
    return rows
  }
  finally {
    await server.stop()
  }
}

async function main() {
  const before = beforeOutput()
  const browser = await launchChromium()
  try {
    const after = await measure(browser, join(ROOT, '.output'))
    const old = before ? await measure(browser, before) : null
    const rows = LANGUAGES.map(language => [
      language,
      old ? kb(old[language]!.js) : '',
      kb(after[language]!.js),
      old ? `${after[language]!.js - old[language]!.js >= 0 ? '+' : ''}${kb(after[language]!.js - old[language]!.js)}` : '',
      after[language]!.scripts,
      after[language]!.languagesInScripts.join(', ') || 'none',
      after[language]!.js < GOAL ? 'within' : 'over',
    ])
    const body = `
/enviar's JavaScript on a first visit from an empty profile, bytes on the wire with gzip (the
budget's encoding), by the language the phone's browser asks for (Chromium's \`locale\`, so
\`Accept-Language\` and \`navigator.languages\`). "Languages in the scripts" names whose guest texts
the downloaded scripts hold (a sentence only that language has): each phone gets its own, and only
it. ${before ? `"Before" is the build in \`${before}\` (the commit before languages), measured in the same run.` : ''}
Run: \`npx tsx bench/languages.ts --before <other .output>\`.

${table(['browser asks for', 'JS before (gzip)', 'JS after (gzip)', 'difference', 'scripts', 'languages in the scripts', `goal < ${kb(GOAL)}`], rows)}
`
    writeSection('Languages: what /enviar costs a guest', body)
    console.log(body)
  }
  finally {
    await browser.close()
  }
}

await main()
