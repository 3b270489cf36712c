import { z } from 'zod'

// Pages run under a CSP without 'unsafe-eval'. Zod compiles fast object parsers with
// `new Function` and probes for that ability once, and Chromium reports even the caught probe as
// a policy violation. Interpreted parsing is plenty fast for forms. This runs as the module is
// evaluated, before any route chunk builds a schema (the choice is made when a schema is built).
z.config({ jitless: true })

export default defineNuxtPlugin(() => {})
