import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve } from 'node:path'
import { build } from 'vite'

const PAGE_DIR = resolve(import.meta.dirname, 'public-images-page')
const ROOT = resolve(import.meta.dirname, '../..')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.jpg': 'image/jpeg', '.heic': 'image/heic',
  '.png': 'image/png', '.webp': 'image/webp',
}

/**
 * Bundles the harness page (tests/browser/support/public-images-page) with Vite into `outDir`:
 * the same bundler and the same `new Worker(new URL(…, import.meta.url))` handling as the app's
 * client build, in seconds instead of a whole `nuxt build`.
 */
export async function buildPublicImagesPage(outDir: string): Promise<void> {
  await build({
    root: PAGE_DIR,
    configFile: false,
    logLevel: 'error',
    resolve: { alias: { '#shared': resolve(ROOT, 'shared'), '~': ROOT } },
    build: { outDir, emptyOutDir: true, minify: false, target: 'es2022' },
  })
}

export interface PublicImagesSite { url: string, stop: () => Promise<void> }

/**
 * Serves the built page, and `photos` by name, under the app's own page policy (a nonce and
 * 'strict-dynamic', see server/utils/security-headers.ts): the worker must load under it.
 */
export async function servePublicImagesPage(outDir: string, photos: Record<string, Buffer | string>): Promise<PublicImagesSite> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    const photo = photos[path.slice(1)]
    if (photo !== undefined) {
      const body = typeof photo === 'string' ? readFileSync(photo) : photo
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-length': body.length })
      response.end(body)
      return
    }
    const file = normalize(join(outDir, path === '/' ? 'index.html' : path))
    if (!file.startsWith(outDir)) {
      response.writeHead(404).end()
      return
    }
    let body: Buffer
    try {
      body = readFileSync(file)
    }
    catch {
      response.writeHead(404).end()
      return
    }
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }
    if (extname(file) === '.html') {
      const nonce = Math.random().toString(36).slice(2)
      body = Buffer.from(body.toString('utf8').replace(/<script /g, `<script nonce="${nonce}" `))
      headers['content-security-policy'] = `default-src 'self'; script-src 'self' 'nonce-${nonce}' 'strict-dynamic'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'`
    }
    response.writeHead(200, headers)
    response.end(body)
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise(done => server.close(() => done())),
  }
}
