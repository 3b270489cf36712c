import type { Rollup } from 'vite'
import { describe, expect, it } from 'vitest'
import { entryModules } from '../../modules/first-load-chunks'

const SRC = '/app'

/** A module graph as Rollup's manualChunks sees it: each module's static imports, and who imports it statically or dynamically. */
function graph(entry: string, imports: Record<string, string[]>, dynamic: Record<string, string[]> = {}): Rollup.ManualChunkMeta {
  const ids = [...new Set([entry, ...Object.keys(imports), ...Object.values(imports).flat(), ...Object.values(dynamic).flat()])]
  const importers = (id: string) => ids.filter(other => imports[other]?.includes(id))
  const dynamicImporters = (id: string) => ids.filter(other => dynamic[other]?.includes(id))
  return {
    getModuleIds: () => ids.values(),
    getModuleInfo: (id: string) => (ids.includes(id)
      ? { id, isEntry: id === entry, importedIds: imports[id] ?? [], importers: importers(id), dynamicImporters: dynamicImporters(id) } as unknown as Rollup.ModuleInfo
      : null),
  }
}

describe('what goes into the entry chunk (modules/first-load-chunks.ts)', () => {
  const entry = `${SRC}/node_modules/nuxt/entry.js`
  const page = `${SRC}/pages/enviar.vue`
  const gallery = `${SRC}/pages/galeria.vue`
  const texts = `${SRC}/shared/messages/pt-BR.ts`
  const textsEn = `${SRC}/shared/messages/en.ts`
  const adminTexts = `${SRC}/shared/messages/admin.pt-BR.ts`
  const lazyRow = `${SRC}/components/upload/UploadItem.vue`
  const meta = graph(entry, {
    [entry]: [`${SRC}/node_modules/vue.js`, `${SRC}/shared/messages/index.ts`],
    [page]: [`${SRC}/node_modules/vue.js`, `${SRC}/components/upload/UploadPicker.vue`, `${SRC}/composables/queue.ts`, `${SRC}/node_modules/vueuse.js`],
    [`${SRC}/composables/queue.ts`]: [`${SRC}/upload-client/summary.ts`, `${SRC}/upload-client/undo.ts`],
    [gallery]: [`${SRC}/node_modules/vueuse.js`, `${SRC}/node_modules/zod.js`],
    [lazyRow]: [`${SRC}/upload-client/undo.ts`],
    [texts]: [`${SRC}/shared/messages/format.pt-BR.ts`],
    [textsEn]: [`${SRC}/shared/messages/format.en.ts`],
    [`${SRC}/shared/messages/format.pt-BR.ts`]: [`${SRC}/shared/messages/format.ts`],
    [`${SRC}/shared/messages/format.en.ts`]: [`${SRC}/shared/messages/format.ts`],
    [adminTexts]: [`${SRC}/shared/messages/format.pt-BR.ts`],
  }, {
    [`${SRC}/node_modules/routes.js`]: [page, gallery],
    [page]: [lazyRow],
    [`${SRC}/shared/messages/index.ts`]: [texts, textsEn, adminTexts],
  })
  const moved = entryModules(meta, SRC)

  it('moves what /enviar reaches at once and something else imports too: another page, a lazy row, the admin\'s texts', () => {
    expect([...moved].sort()).toEqual([
      entry,
      `${SRC}/node_modules/vueuse.js`,
      `${SRC}/shared/messages/format.pt-BR.ts`,
      `${SRC}/shared/messages/format.ts`,
      `${SRC}/upload-client/undo.ts`,
    ].sort())
  })

  it('leaves the page, what only the page uses, and what /enviar does not load at first where Rollup puts them', () => {
    // format.en.ts: only the English texts import it here (no English admin texts in this graph).
    for (const id of [page, `${SRC}/components/upload/UploadPicker.vue`, `${SRC}/composables/queue.ts`, `${SRC}/upload-client/summary.ts`, texts, textsEn, `${SRC}/shared/messages/format.en.ts`, gallery, `${SRC}/node_modules/zod.js`, lazyRow, adminTexts]) {
      expect(moved.has(id), id).toBe(false)
    }
  })

  it('moves nothing without an entry', () => {
    expect(entryModules(graph('', {}), SRC).size).toBe(0)
  })
})
