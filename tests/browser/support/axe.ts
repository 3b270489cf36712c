import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { animationsDone } from './browser'

/** axe-core's browser bundle, read once. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** The impacts that fail a test: what blocks or seriously hinders someone using assistive technology. */
const FAILING_IMPACTS = new Set(['serious', 'critical'])

export interface AxeFinding {
  id: string
  impact: string
  help: string
  helpUrl: string
  nodes: { target: string, summary: string }[]
}

/**
 * Runs axe-core on the page as it is once its animations have ended, and returns its serious and critical violations.
 * `page.evaluate` (CDP) runs the source whatever the page's CSP says; an injected <script> tag
 * would be refused by the pages' nonce + 'strict-dynamic' policy. Frames are left out: the only
 * one is the admin's PDF card preview, which holds no markup of ours.
 */
export async function axeViolations(page: Page, exclude: string[] = []): Promise<AxeFinding[]> {
  // Colours are measured on the page at rest.
  await animationsDone(page)
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')
  if (!loaded) await page.evaluate(axeSource)
  const found = await page.evaluate(async (excluded) => {
    const axe = (window as unknown as { axe: any }).axe
    const context = excluded.length > 0 ? { exclude: excluded.map(selector => [selector]) } : document
    // label-content-name-mismatch (WCAG 2.5.3, a spoken command must match the visible words) is
    // tagged experimental, so axe leaves it off unless asked.
    const results = await axe.run(context, { iframes: false, resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    return (results.violations as any[]).map(violation => ({
      id: violation.id as string,
      impact: String(violation.impact),
      help: violation.help as string,
      helpUrl: violation.helpUrl as string,
      nodes: (violation.nodes as any[]).map(node => ({ target: (node.target as string[]).join(' '), summary: String(node.failureSummary ?? '') })),
    }))
  }, exclude)
  return found.filter(finding => FAILING_IMPACTS.has(finding.impact))
}

/** A readable report: each rule, why it matters, and where. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings.map(finding => [
    `${finding.id} (${finding.impact}): ${finding.help} ${finding.helpUrl}`,
    ...finding.nodes.map(node => `  at ${node.target}\n    ${node.summary.replace(/\n/g, '\n    ')}`),
  ].join('\n')).join('\n')
}

/**
 * Fails when axe-core finds a serious or critical violation on the page as it is now (`state`
 * names it in the message), printing the rule ids, the elements and the help.
 */
export async function expectAccessible(page: Page, state: string, exclude: string[] = []): Promise<void> {
  const findings = await axeViolations(page, exclude)
  if (findings.length > 0) throw new Error(`axe-core: ${findings.length} serious or critical violation(s) on ${state}:\n${describeFindings(findings)}`)
}
