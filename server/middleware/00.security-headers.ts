/**
 * Baseline for every response; HTML pages get their nonce-based policy in the render hook. The
 * web app manifest, read by the browser as data, gets no policy (a `sandbox` one means nothing
 * for it). The service worker's script is a public file, served before any middleware: no
 * policy of ours reaches it (a worker runs under its script's policy, and `default-src 'none'`
 * would forbid every fetch it makes for the pages); tests/e2e/security-headers.test.ts checks it.
 */
export default defineEventHandler((event) => {
  setResponseHeaders(event, COMMON_SECURITY_HEADERS)
  if (event.path.split('?')[0] !== WEB_MANIFEST_PATH) setResponseHeader(event, 'content-security-policy', NON_PAGE_CSP)
  if (isHttpsRequest(event)) setResponseHeader(event, 'strict-transport-security', STRICT_TRANSPORT_SECURITY)
})
