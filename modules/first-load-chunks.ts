import type { Rollup } from 'vite'
import { addVitePlugin, defineNuxtModule } from 'nuxt/kit'

/**
 * /enviar's first load in three scripts: the entry, the page and the language's texts. Over
 * HTTP/1.1 (the Node preset, the venue laptop) a browser opens six connections to a host; /enviar
 * named 12 scripts and 3 stylesheets, which went in three waves, each waiting a round trip (562 ms
 * on Slow 4G) before any of it ran (bench/RESULTS.md, "Guest first load"). Rollup's own split
 * cuts a chunk for every set of importers: a module /enviar needs at once that another page, a
 * lazy row or the admin's texts also import became a file of its own, often under 1 KB.
 *
 * Here such a module goes into the entry chunk instead: everything /enviar's page, or a
 * language's texts, reach through static imports and that something else imports too. What only
 * the page (or only the texts) use stays in its chunk, as Rollup puts it; what /enviar does not
 * load at first (the rows and results that show once files are picked, the sending code, the
 * gallery, the admin) keeps Rollup's own split. The other guest pages gain from the same entry:
 * what they share with /enviar (the header, links, the event, VueUse) is in it.
 */

const ENTRY_CHUNK = 'entry'

/** /enviar's page and each language's texts: what /enviar loads before it answers a tap, besides the entry. */
const FIRST_LOAD_ROOT = /^(pages\/enviar\.vue|shared\/messages\/[a-z]{2}(?:-[A-Z]{2})?\.ts)$/

/** Every module `id` needs before it runs: its static imports, followed to the end. */
function staticClosure(id: string, meta: Rollup.ManualChunkMeta): Set<string> {
  const seen = new Set<string>()
  const stack = [id]
  while (stack.length) {
    const next = stack.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...meta.getModuleInfo(next)?.importedIds ?? [])
  }
  return seen
}

/** The modules the rule above moves into the entry chunk, the entry module itself included. */
export function entryModules(meta: Rollup.ManualChunkMeta, srcDir: string): Set<string> {
  const ids = [...meta.getModuleIds()]
  const entry = ids.find(id => meta.getModuleInfo(id)?.isEntry)
  if (!entry) return new Set()
  const inEntry = staticClosure(entry, meta)
  // Rollup makes a manual chunk the entry chunk when it holds the entry module under the entry's name.
  const moved = new Set([entry])
  for (const root of ids.filter(id => id.startsWith(`${srcDir}/`) && FIRST_LOAD_ROOT.test(id.slice(srcDir.length + 1)))) {
    const reached = staticClosure(root, meta)
    for (const id of reached) {
      if (id === root || inEntry.has(id)) continue
      const info = meta.getModuleInfo(id)
      const importers = [...info?.importers ?? [], ...info?.dynamicImporters ?? []]
      if (importers.some(importer => !reached.has(importer))) moved.add(id)
    }
  }
  return moved
}

/** Rollup's `manualChunks` for the client build, worked out once the module graph is known. */
export function firstLoadChunks(srcDir: string): Rollup.GetManualChunk {
  let moved: Set<string> | null = null
  return (id, meta) => {
    moved ??= entryModules(meta, srcDir)
    return moved.has(id) ? ENTRY_CHUNK : undefined
  }
}

export default defineNuxtModule({
  meta: { name: 'first-load-chunks' },
  setup(_, nuxt) {
    if (nuxt.options.dev) return
    const srcDir = nuxt.options.srcDir.replace(/\/$/, '')
    addVitePlugin({
      name: 'first-load-chunks',
      // V8's explicit compile hint (Chromium 136 and later; other engines read a comment): the
      // entry's functions are compiled on the thread that streams the file in, while the page
      // waits on the network, instead of one by one on the main thread as hydration first calls
      // them. Measured on /enviar under the bench's Slow 4G and 4× slower CPU: from the last script
      // to interactive, 235 ms before, 127 ms after. Only the entry: nearly all of it runs at load.
      // After Vite's own passes over the bundle (its import analysis rewrites the entry's code).
      generateBundle: {
        order: 'post',
        handler(_, bundle) {
          if (this.environment?.name !== 'client') return
          for (const chunk of Object.values(bundle)) {
            if (chunk.type !== 'chunk' || !chunk.isEntry) continue
            chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`
            // One line more at the top: a source map (when the build writes one) starts a line later.
            const mapAsset = bundle[chunk.sourcemapFileName ?? `${chunk.fileName}.map`]
            if (mapAsset?.type === 'asset' && typeof mapAsset.source === 'string') {
              const map = JSON.parse(mapAsset.source) as { mappings: string }
              mapAsset.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` })
            }
          }
        },
      },
      // The browser's build only: Nuxt builds the server's with no manual chunks.
      configEnvironment(name) {
        if (name !== 'client') return
        return { build: { rollupOptions: { output: { manualChunks: firstLoadChunks(srcDir) } } } }
      },
    })
  },
})
