/**
 * Which of the build's chunks a guest's phone keeps, decided at build time from Vite's client
 * manifest (Nuxt's `build:manifest` hook) and applied to the worker's precache list
 * (`injectManifest.manifestTransforms` in nuxt.config.ts, which runs later, when the worker is
 * built). The admin is online-only: its pages, its middleware and its texts, and every chunk only
 * they reach, stay out of a phone's cache and out of a guest page's prefetch hints.
 */

/** One entry of Vite's client manifest, as Nuxt hands it to `build:manifest`. */
export interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
  assets?: string[]
  prefetch?: boolean
  preload?: boolean
}

/** Sources that only the admin loads: where a guest's reach stops. */
const ADMIN_SOURCE = /^(pages\/admin\/|middleware\/admin\.ts$|shared\/messages\/admin\.)/

/** Every file a guest page can load: from the entry through imports and dynamic imports, never into an admin source. */
function guestFiles(manifest: Record<string, ManifestChunk>): Set<string> {
  const files = new Set<string>()
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key) || ADMIN_SOURCE.test(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) return
    files.add(chunk.file)
    for (const file of [...chunk.css ?? [], ...chunk.assets ?? []]) files.add(file)
    for (const next of [...chunk.imports ?? [], ...chunk.dynamicImports ?? []]) visit(next)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
  return files
}

/** The manifest's files no guest page reaches (file names as in the manifest, relative to `_nuxt/`). */
export function adminOnlyFiles(manifest: Record<string, ManifestChunk>): Set<string> {
  const guest = guestFiles(manifest)
  const adminOnly = new Set<string>()
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...chunk.css ?? [], ...chunk.assets ?? []]) if (!guest.has(file)) adminOnly.add(file)
  }
  return adminOnly
}

/** A precache entry's URL (`_nuxt/abc.js`, as Workbox lists them) is an admin-only file. */
export function isAdminOnlyEntry(url: string, adminOnly: ReadonlySet<string>, buildAssetsDir = '_nuxt/'): boolean {
  const path = url.replace(/^\//, '')
  return path.startsWith(buildAssetsDir) && adminOnly.has(path.slice(buildAssetsDir.length))
}
