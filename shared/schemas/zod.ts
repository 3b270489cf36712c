import { z } from 'zod'

// Pages run under a CSP without 'unsafe-eval'. Zod compiles fast object parsers with
// `new Function` and probes for that ability once, and Chromium reports even the caught probe as
// a policy violation. Interpreted parsing is plenty fast for forms. Every shared schema takes
// its `z` from here, so the choice is made before a schema exists in the browser, and zod stays
// out of the pages that parse nothing (a plugin doing this put all of zod in every page's first
// load). The server keeps the compiled parsers.
if ('window' in globalThis) z.config({ jitless: true })

export { z }
