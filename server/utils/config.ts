import { z } from 'zod'
import { normaliseEmail } from '#shared/schemas/auth'
import { parseProxyAddresses } from './http/trusted-proxy'

const emailList = z.string()
  .transform(value => value.split(',').map(normaliseEmail).filter(Boolean))
  .pipe(z.array(z.email()).min(1, 'at least one email'))

const optional = z.string().trim().min(1).optional().catch(undefined)
const httpUrl = z.url({ protocol: /^https?$/ })

const configSchema = z.object({
  ADMIN_PASSWORD: z.string().min(1),
  SESSION_SECRET: z.string().min(32, 'at least 32 characters'),
  ALLOWED_ADMIN_EMAILS: emailList,
  PUBLIC_BASE_URL: httpUrl,
  DATABASE_URL: z.string().min(1).default('file:.data/event.db'),
  DATABASE_AUTH_TOKEN: optional,
  S3_BUCKET: optional,
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().min(1).default('auto'),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).optional().transform(v => v === 'true' || v === '1'),
  S3_PUBLIC_URL: httpUrl.optional(),
  MEDIA_DIR: z.string().min(1).default('.data/media'),
  TURNSTILE_SECRET_KEY: optional,
  TURNSTILE_VERIFY_URL: httpUrl.default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** Header a trusted reverse proxy sets with the client's address (e.g. x-forwarded-for). */
  TRUST_PROXY: z.string().trim().toLowerCase().regex(/^[a-z0-9-]+$/).optional(),
  /** The proxies' own addresses (IPs, CIDRs, comma-separated): forwarded headers from anyone else are ignored. */
  TRUST_PROXY_FROM: z.string().trim().refine(value => parseProxyAddresses(value) !== null, 'comma-separated IP addresses or CIDR ranges').optional(),
  /** Lifetime of presigned upload URLs; short in tests that exercise expiry. */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(15 * 60),
  /** Records initialised but never confirmed are removed, with their bytes, after this long. */
  UPLOAD_STALE_AFTER_SECONDS: z.coerce.number().int().min(1).default(24 * 3600),
  /** How often the Node server runs the sweeper (0: never; serverless presets use the cron task). */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(10 * 60),
  /** How long after its confirm the device that sent an upload may remove it (its undo token); 0: never. */
  UNDO_WINDOW_SECONDS: z.coerce.number().int().min(0).max(7 * 24 * 3600).default(15 * 60),
  /** Upload inits (and, separately, confirms) one client may make per minute, in a burst or spread. */
  RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Redis for rate-limit counters shared by several instances (memory otherwise). */
  REDIS_URL: z.string().regex(/^rediss?:\/\//).optional(),
  /**
   * Tests only: a file holding the time (ms since the epoch) the sliding windows count by (the
   * gallery PIN's hourly budget), read at each count, so a test moves an hour on without waiting.
   */
  TEST_CLOCK_FILE: optional,
  /** Notifications for the couple: at most one per this many seconds, carrying every new item since the last. */
  NOTIFY_BATCH_SECONDS: z.coerce.number().int().min(1).max(24 * 3600).default(60),
  /**
   * The ffmpeg that makes display copies of videos browsers cannot play (HEVC, VP9, AV1); when unset,
   * `ffmpeg` on the PATH. Set to a path with no ffmpeg, the server makes none (init says so).
   */
  FFMPEG_PATH: optional,
  /** How long a SQLite writer waits for a lock before the request answers 503. */
  DATABASE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
})

export type AppConfig = z.infer<typeof configSchema>

let cached: AppConfig | undefined

/** Presets that run as one long-lived process with a disk that outlives a request. */
export const LONG_RUNNING_PRESETS = new Set(['node-server', 'node-cluster', 'node', 'nitro-dev', 'nitro-prerender'])

/** Whether this build runs as one long-lived process (a timer can run the sweeper) or serverless. */
export function isLongRunningPreset(): boolean {
  return import.meta.dev || LONG_RUNNING_PRESETS.has(String(import.meta.preset ?? ''))
}

/**
 * Names of the variables that are missing or invalid, with the reason, or the parsed config.
 * On a serverless preset the local disk and a database file vanish between invocations, so
 * S3-compatible storage and a remote database become mandatory there.
 */
export function parseConfig(env: Record<string, string | undefined>, preset = 'node-server'):
  { ok: true, config: AppConfig } | { ok: false, problems: string[] } {
  // An empty variable is the same as a missing one (a `.env` line like `S3_BUCKET=`).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
  const result = configSchema.safeParse(cleaned)
  if (result.success) {
    const problems: string[] = []
    if (!LONG_RUNNING_PRESETS.has(preset)) {
      if (!result.data.S3_BUCKET) problems.push(`S3_BUCKET is missing: the ${preset} preset has no lasting disk for local storage; configure S3-compatible storage (S3_*)`)
      if (result.data.DATABASE_URL.startsWith('file:')) problems.push(`DATABASE_URL is invalid: the ${preset} preset cannot keep a database file; use a libsql:// or https:// database`)
    }
    return problems.length ? { ok: false, problems } : { ok: true, config: result.data }
  }
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'config')
    return cleaned[name] === undefined ? `${name} is missing` : `${name} is invalid: ${issue.message}`
  })
  return { ok: false, problems: [...new Set(problems)] }
}

/** The validated configuration; read once from the environment at start, never from the build. */
export function useConfig(): AppConfig {
  if (cached) return cached
  const result = parseConfig(process.env)
  if (!result.ok) throw new Error(`Invalid configuration: ${result.problems.join('; ')}`)
  cached = result.config
  return cached
}
