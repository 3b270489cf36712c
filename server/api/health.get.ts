import { sql } from 'drizzle-orm'

/**
 * For load balancers and the kiosk laptop: 200 when the database and the storage answer, else 503
 * with which one did not. Never cached.
 */
export default defineEventHandler(async (event) => {
  const [database, storage, backlog] = await Promise.all([
    useDb().run(sql`SELECT 1`).then(() => 'ok' as const, () => 'unavailable' as const),
    // Either outcome updates what init remembers of the storage's health.
    useMediaStore().ping().then(() => {
      markStorageUp()
      return 'ok' as const
    }, () => {
      markStorageDown()
      return 'unavailable' as const
    }),
    // Null only with the database unavailable, which the answer says.
    derivationBacklog().catch(() => null),
  ])
  const ok = database === 'ok' && storage === 'ok'
  setResponseStatus(event, ok ? 200 : 503)
  return {
    status: ok ? 'ok' : 'degraded',
    database,
    storage,
    storageDriver: useMediaStore().driver,
    version: useRuntimeConfig().public.version,
    uptimeSec: Math.round(process.uptime()),
    // Uploads still waiting for their public images (not in the gallery yet), from the database.
    derivationBacklog: backlog ?? 0,
  }
})
