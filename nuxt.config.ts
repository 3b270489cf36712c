import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BRAND_COLOUR } from './shared/brand'
import { adminOnlyFiles, isAdminOnlyEntry } from './service-worker/precache-scope'

/** The service worker's offline shell (a client-only render of the app); see `pwa` below. */
const APP_SHELL_PATH = '/app-shell'
/** The build's chunks no guest page reaches: filled by `build:manifest`, read when the worker is built. */
let adminOnly = new Set<string>()

// The package exports only CSS and its LICENSE; the font files sit in `files/` beside it.
const loraFiles = join(dirname(createRequire(import.meta.url).resolve('@fontsource/lora/LICENSE')), 'files')

export default defineNuxtConfig({
  modules: ['@nuxt/eslint', '@vite-pwa/nuxt'],
  // The admin's components sit in rooms by what they serve (moderation/, guestbook/, event/,
  // stats/, shell/, common/) and keep the names their files carry (<AdminUploadCard>): a name is
  // found by its file, and a move between rooms renames nothing. Listed first, so the general
  // entry below leaves the admin's folder to it.
  components: [
    { path: '~/components/admin', pathPrefix: false },
    '~/components',
  ],
  // Feature folders (`composables/upload/`, …) export their public composables through an
  // index.ts; Nuxt scans only top-level files unless told. upload-client/ is never auto-imported:
  // the page and the service worker import its plain modules by name.
  imports: { dirs: ['composables/*/index.ts'] },
  devtools: { enabled: false },
  app: {
    head: {
      htmlAttrs: { lang: 'pt-BR' },
      meta: [
        { name: 'viewport', content: 'width=device-width, initial-scale=1, viewport-fit=cover' },
        { name: 'theme-color', content: BRAND_COLOUR },
      ],
      // The web app manifest's link is in app.vue (the slideshow links its own).
      link: [{ rel: 'apple-touch-icon', href: '/icons/icon-192.png' }],
    },
  },
  // The design tokens, one set for every page (guest, venue screen, admin).
  css: ['~/assets/css/tokens.css'],
  runtimeConfig: {
    // Public, build-time: the version /api/health reports. Secrets are never put here.
    public: { version: process.env.npm_package_version ?? '0.0.0' },
  },
  // Top-level pages/components/composables (no app/ folder), as the project layout says.
  srcDir: '.',
  serverDir: 'server',
  // The admin pages render in the browser only: the server never builds admin markup, so an
  // unauthenticated request gets an empty shell, never admin data.
  routeRules: {
    '/admin': { ssr: false },
    '/admin/**': { ssr: false },
    // The offline shell the service worker keeps (service-worker/sw.ts): the app with no server
    // render, so a guest page opened offline renders from its cached API answers and has no
    // server payload to mismatch.
    [APP_SHELL_PATH]: { ssr: false },
  },
  // Page styles as <link>s in the server render, not inlined: with inlined styles, hydration
  // still fetched the page's stylesheet before mounting it, one more round trip (562 ms on slow
  // 4G) before /enviar answers a tap. See bench/RESULTS.md, "Guest pages weight".
  features: { inlineStyles: false },
  compatibilityDate: '2026-11-01',
  nitro: {
    // Migrations travel inside the server bundle so every preset (Node, Vercel, Netlify) can
    // apply them at start without a file system next to the code.
    // The PDFs' font goes the same way (server/utils/pdf/fonts.ts): only the two faces they use.
    serverAssets: [
      { baseName: 'migrations', dir: fileURLToPath(new URL('./db/migrations', import.meta.url)) },
      { baseName: 'fonts', dir: loraFiles, pattern: 'lora-latin-{400,700}-normal.woff' },
    ],
    experimental: { tasks: true, asyncContext: true },
    // Scripts and styles are also written as .gz and .br at build time, and the node server
    // sends those to browsers that accept them (it compresses nothing on the fly): on a guest's
    // weak 4G, /enviar's scripts are ~100 KB instead of ~255 KB.
    compressPublicAssets: true,
    scheduledTasks: { '*/15 * * * *': ['uploads:sweep'] },
  },
  // Every component here is `<script setup>` (Nuxt's own use setup() too): Vue's Options API
  // support is left out of every page's first load (1.8 KB gzip of the entry).
  vite: { vue: { features: { optionsAPI: false } } },
  typescript: { strict: true, typeCheck: false },
  telemetry: false,
  hooks: {
    // Nuxt hints every chunk a page may one day import as `<link rel=prefetch>`. Our service
    // worker fetches and keeps every guest chunk right after a first load, so the hints would
    // only add to the first load on a phone's weak network: none is kept. Each language's texts
    // are preloaded by the page that speaks it (plugins/language.ts); everything only the admin
    // reaches is never preloaded on a guest page, and kept out of the worker's precache (below).
    'build:manifest'(manifest) {
      adminOnly = adminOnlyFiles(manifest)
      for (const chunk of Object.values(manifest)) {
        chunk.prefetch = false
        if (adminOnly.has(chunk.file)) chunk.preload = false
      }
    },
    // Our handler maps a locked database to 503 and otherwise leaves the error to Nuxt's own.
    'nitro:config'(config) {
      const existing = config.errorHandler ? [config.errorHandler].flat() : []
      config.errorHandler = [fileURLToPath(new URL('./server/error-handler.ts', import.meta.url)), ...existing]
    },
  },
  eslint: { config: { stylistic: true } },
  // The service worker of the venue screen and the guests' pages: Workbox, built
  // from our own source (injectManifest) since it rewrites the offline shell's CSP nonce and
  // evicts removed photos; registered by plugins/service-worker.client.ts, not by the module.
  pwa: {
    strategies: 'injectManifest',
    srcDir: 'service-worker',
    filename: 'sw.ts',
    injectRegister: false,
    // Served by server/routes/manifest.webmanifest.get.ts, named after the event.
    manifest: false,
    client: { registerPlugin: false },
    registerWebManifestInRouteRules: true,
    injectManifest: {
      // Scripts, styles, fonts and icons of every page; the app manifest of the build (route rules).
      globPatterns: ['_nuxt/**/*.{js,css,woff,woff2,svg,png}', 'icons/*.png', '_nuxt/builds/meta/*.json'],
      // Every build gets a new shell: its revision is the build time.
      additionalManifestEntries: [{ url: APP_SHELL_PATH, revision: String(Date.now()) }],
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      // A guest's phone keeps the guest pages' code; the admin is online-only.
      manifestTransforms: [entries => ({ manifest: entries.filter(entry => !isAdminOnlyEntry(entry.url, adminOnly)), warnings: [] })],
    },
  },
})
