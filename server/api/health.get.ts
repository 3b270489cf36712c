import { sql } from 'drizzle-orm'
import { emptyQuerySchema } from '#shared/schemas/common'

/**
 * For load balancers and the kiosk laptop: 200 when the database and the storage answer, else 503
 * with which one did not. A Redis that does not answer leaves the service working (rate limits
 * count per instance meanwhile), so it is 200 `degraded`, not a reason to take the instance out.
 * Never cached.
 */
export default defineEventHandler(async (event) => {
  await readQueryAs(event, emptyQuerySchema)
  const [database, storage, rateLimitStore, backlog] = await Promise.all([
    useDb().run(sql`SELECT 1`).then(() => 'ok' as const, () => 'unavailable' as const),
    // Either outcome updates what init remembers of the storage's health.
    useMediaStore().ping().then(() => {
      markStorageUp()
      return 'ok' as const
    }, () => {
      markStorageDown()
      return 'unavailable' as const
    }),
    rateLimitStoreState(),
    // Null only with the database unavailable, which the answer says.
    derivationBacklog().catch(() => null),
  ])
  const ok = database === 'ok' && storage === 'ok'
  setResponseStatus(event, ok ? 200 : 503)
  return {
    status: ok && rateLimitStore !== 'unavailable' ? 'ok' : 'degraded',
    database,
    storage,
    rateLimitStore,
    storageDriver: useMediaStore().driver,
    version: useRuntimeConfig().public.version,
    uptimeSec: Math.round(process.uptime()),
    // Uploads still waiting for their public images (not in the gallery yet), from the database.
    derivationBacklog: backlog ?? 0,
  }
})
