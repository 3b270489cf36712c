import { parseConfig } from '../utils/config'

/**
 * Refuse to start on missing or invalid configuration: plugins run before the server listens, so
 * exiting here means no request is ever served with a half-configured service. Only the variable
 * names and reasons are printed, never their values.
 */
export default defineNitroPlugin(() => {
  const result = parseConfig(process.env, String(import.meta.preset ?? 'node-server'))
  if (result.ok) return
  console.error(`[config] The service cannot start:\n${result.problems.map(p => `  - ${p}`).join('\n')}\nSee README.md, "Configuration".`)
  process.exit(1)
})
