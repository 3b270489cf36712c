/** Baseline for every response; HTML pages get their nonce-based policy in the render hook. */
export default defineEventHandler((event) => {
  setResponseHeaders(event, COMMON_SECURITY_HEADERS)
  setResponseHeader(event, 'content-security-policy', NON_PAGE_CSP)
  if (isHttpsRequest(event)) setResponseHeader(event, 'strict-transport-security', STRICT_TRANSPORT_SECURITY)
})
