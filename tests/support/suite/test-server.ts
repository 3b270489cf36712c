import type { Client } from '@libsql/client'
import { afterAll, beforeAll } from 'vitest'
import { login } from '../http'
import { startS3, type TestS3 } from '../s3'
import { openDatabase } from '../seed'
import { startServer, type TestServer } from '../server'
import { localProbe, s3Probe, type StorageProbe } from '../storage'

export interface TestServerOptions {
  /** Store on S3 (a real s3rver, started first) instead of the local disk. */
  s3?: boolean
  /** Log in as the admin once the server answers: `cookie`. */
  admin?: boolean
  /** Open the server's database beside it for direct reads and writes: `db`. */
  db?: boolean
  /** More environment for the server, over the test defaults (and s3rver's variables). */
  env?: Record<string, string | undefined>
}

/**
 * The suite's server. Its fields exist from the suite's `beforeAll` on (read them in tests and
 * hooks, not while the suite is being collected); it is a `TestServer` itself (`url`, `dbPath`,
 * `stop()`…), plus what the options asked for.
 */
export interface TestServerHandle extends TestServer {
  /** The s3rver the server stores on (`s3: true`). */
  readonly s3: TestS3
  /** The admin's session cookie, `name=value` (`admin: true`). */
  readonly cookie: string
  /** The server's database, opened beside it (`db: true`). */
  readonly db: Client
  /** Reads the storage the server writes to (disk or s3rver) without going through the server. */
  readonly probe: StorageProbe
  /** Starts s3rver again on the same port and folder after a test stopped it (an outage ends). */
  restartS3(): Promise<TestS3>
}

/**
 * Registers the start and the stop of a test server for the enclosing suite (or file): the real
 * built server on a free port with its own database and media folder, on the local disk or a
 * fresh s3rver. Like @nuxt/test-utils' `setup()`, one call registers both hooks and answers a
 * context that the hooks fill; unlike it, each suite gets its own environment, folders and
 * storage, and a clean process environment.
 *
 * Hooks run in the order they are registered and clean-ups in reverse: a suite's own `beforeAll`
 * written after this call sees the server running, and its `afterAll` runs before the server stops.
 */
export function useTestServer(options: TestServerOptions = {}): TestServerHandle {
  let server: TestServer | undefined
  let s3: TestS3 | undefined
  let cookie: string | undefined
  let db: Client | undefined
  let probe: StorageProbe | undefined

  beforeAll(async () => {
    if (options.s3) s3 = await startS3()
    server = await startServer({ ...s3?.env, ...options.env })
    probe = s3 ? s3Probe(s3) : localProbe(server.mediaDir)
    if (options.admin) cookie = await login(server.url)
    if (options.db) db = openDatabase(server.dbPath)
  })
  afterAll(async () => {
    db?.close()
    await server?.stop()
    await s3?.stop()
  })

  function running(): TestServer {
    if (!server) throw new Error('useTestServer: the server starts in beforeAll; read it inside tests and hooks')
    return server
  }
  function asked<T>(value: T | undefined, option: keyof TestServerOptions): T {
    running()
    if (value === undefined) throw new Error(`useTestServer: pass { ${option}: true } for this`)
    return value
  }

  return {
    get url() { return running().url },
    get port() { return running().port },
    get dir() { return running().dir },
    get dbPath() { return running().dbPath },
    get mediaDir() { return running().mediaDir },
    get env() { return running().env },
    get proc() { return running().proc },
    output: () => running().output(),
    stop: signal => running().stop(signal),
    get s3() { return asked(s3, 's3') },
    get cookie() { return asked(cookie, 'admin') },
    get db() { return asked(db, 'db') },
    get probe() {
      running()
      return probe!
    },
    async restartS3() {
      const stopped = asked(s3, 's3')
      s3 = await startS3({ port: stopped.port, directory: stopped.directory })
      return s3
    },
  }
}
