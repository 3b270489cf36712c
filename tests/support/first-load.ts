/**
 * The stylesheets and scripts a server-rendered page's HTML names (`<link rel=stylesheet>`,
 * `<link rel=modulepreload>`, `<script src>`), each once: what must arrive before the page answers
 * a tap. Over HTTP/1.1 a browser opens six connections to a host, so more than six wait a second
 * round trip. Shared by browser/guest-first-load and bench/pages.ts.
 */
export function namedByHtml(html: string): Set<string> {
  return new Set([
    ...[...html.matchAll(/<link rel="(?:stylesheet|modulepreload)"[^>]*href="([^"]+)"/g)].map(match => match[1]!),
    ...[...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map(match => match[1]!),
  ])
}
