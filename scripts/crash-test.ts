// npm run crash-test [-- rounds]: the crash-safety run of tests/e2e/crash-safety.test.ts, longer.
import { runCrashSafety } from '../tests/support/crash'

const rounds = Number(process.argv[2] ?? 20)
const report = await runCrashSafety({ rounds, log: line => console.log(line) })
console.log(JSON.stringify(report, null, 2))
const ok = report.integrity === 'ok' && !report.missing.length && !report.halfApplied.length && !report.orphans.length && report.unconfirmedLeft === 0
process.exit(ok ? 0 : 1)
