import { dbReady } from '../utils/db'
import { isLongRunningPreset } from '../utils/config'
import { resumeDerivations } from '../utils/uploads/derivation-queue'

/**
 * On a long-running server, at start: the photos a crash left confirmed without their public
 * images are derived now, not at the next sweep, so they reach the gallery within seconds of the
 * restart. Serverless presets have no start to hook: their sweeper, riding on traffic, picks them up.
 */
export default defineNitroPlugin(() => {
  if (!isLongRunningPreset()) return
  // After start-up, off its path: the server answers while the backlog is read and derived.
  setTimeout(async () => {
    try {
      await dbReady()
      const resumed = await resumeDerivations()
      if (resumed) console.info(`[derive] resumed ${resumed} upload(s) a stop left without their public images`)
    }
    catch (error) {
      console.error('[derive] resuming after start failed:', error instanceof Error ? error.message : error)
    }
  }, 0).unref?.()
})
