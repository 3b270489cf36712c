import type { BrowserContext, Page } from 'playwright-core'

export interface WatchedPage {
  context: BrowserContext
  page: Page
  /** Uncaught errors, CSP violations and console errors the page produced so far. */
  problems: string[]
}

// Error answers the tests provoke on purpose (a wrong password, a revoked session, a refused
// action) show up in the console as failed loads: the server's contract, not the page's fault.
const HTTP_ERROR_STATUS = /^Failed to load resource: the server responded with a status of \d{3}/

/** A new page of `context`, watched for an uncaught error, a CSP violation, an error logged to the console. */
export async function watchPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage()
  const problems: string[] = []
  // Injected by the browser itself, so the page's CSP does not apply to it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`)
    })
  })
  page.on('pageerror', error => problems.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const text = message.text()
    if (HTTP_ERROR_STATUS.test(text)) return
    problems.push(`console: ${text}`)
  })
  return { context, page, problems }
}
