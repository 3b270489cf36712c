import { describe, expect, it } from 'vitest'
import { adminOnlyFiles, isAdminOnlyEntry, type ManifestChunk } from '../../../service-worker/precache-scope'

// A client manifest shaped as Vite writes it (and Nuxt hands to `build:manifest`): the entry, a
// guest page, the admin's pages and middleware, chunks they share, and the texts per audience.
const manifest: Record<string, ManifestChunk> = {
  'node_modules/nuxt/dist/app/entry.js': { file: 'entry.js', isEntry: true, css: ['entry.css'], dynamicImports: ['pages/enviar.vue', 'pages/admin/index.vue', 'pages/admin/login.vue', 'middleware/admin.ts', 'shared/messages/pt-BR.ts', 'shared/messages/admin.pt-BR.ts'] },
  'pages/enviar.vue': { file: 'enviar.js', imports: ['_shared.js', '_queue.js'], css: ['enviar.css'] },
  '_queue.js': { file: 'queue.js', dynamicImports: ['upload-client/engine.ts'] },
  'upload-client/engine.ts': { file: 'engine.js', imports: ['_shared.js'] },
  '_shared.js': { file: 'shared.js' },
  'pages/admin/index.vue': { file: 'admin.js', imports: ['_shared.js', '_admin-api.js'], css: ['admin.css'], assets: ['admin-logo.svg'] },
  'pages/admin/login.vue': { file: 'login.js', imports: ['_admin-api.js'] },
  'middleware/admin.ts': { file: 'middleware.js', imports: ['_admin-api.js'] },
  '_admin-api.js': { file: 'admin-api.js' },
  'shared/messages/pt-BR.ts': { file: 'texts.js', imports: ['_format.js'] },
  'shared/messages/admin.pt-BR.ts': { file: 'admin-texts.js', imports: ['_format.js'] },
  '_format.js': { file: 'format.js' },
}

describe('the chunks a guest\'s phone keeps', () => {
  it('leaves out what only the admin reaches: its pages, middleware, texts, styles, assets and private chunks', () => {
    expect([...adminOnlyFiles(manifest)].sort()).toEqual(['admin-api.js', 'admin-logo.svg', 'admin-texts.js', 'admin.css', 'admin.js', 'login.js', 'middleware.js'])
  })

  it('keeps what a guest page reaches, also through a dynamic import and when the admin shares it', () => {
    const adminOnly = adminOnlyFiles(manifest)
    for (const file of ['entry.js', 'entry.css', 'enviar.js', 'queue.js', 'engine.js', 'shared.js', 'texts.js', 'format.js']) expect(adminOnly.has(file)).toBe(false)
  })

  it('matches Workbox\'s precache URLs under the build\'s assets folder only', () => {
    const adminOnly = adminOnlyFiles(manifest)
    expect(isAdminOnlyEntry('_nuxt/admin.js', adminOnly)).toBe(true)
    expect(isAdminOnlyEntry('/_nuxt/login.js', adminOnly)).toBe(true)
    expect(isAdminOnlyEntry('_nuxt/enviar.js', adminOnly)).toBe(false)
    expect(isAdminOnlyEntry('icons/admin.js', adminOnly)).toBe(false)
    expect(isAdminOnlyEntry('/app-shell', adminOnly)).toBe(false)
  })
})
