import { ErrorCode } from '#shared/errors'

/**
 * Cloudflare Turnstile, when configured. A missing token is accepted (the specification makes
 * the challenge optional); a token that is sent must pass.
 */
export async function assertChallenge(token: string | undefined, remoteIp: string): Promise<void> {
  const { TURNSTILE_SECRET_KEY, TURNSTILE_VERIFY_URL } = useConfig()
  if (!TURNSTILE_SECRET_KEY || token === undefined) return
  let success = false
  try {
    const result = await $fetch<{ success?: boolean }>(TURNSTILE_VERIFY_URL, {
      method: 'POST',
      body: new URLSearchParams({ secret: TURNSTILE_SECRET_KEY, response: token, remoteip: remoteIp }),
      timeout: 5000,
    })
    success = result.success === true
  }
  catch (error) {
    console.error('[turnstile] verification failed to run:', error instanceof Error ? error.message : error)
  }
  if (!success) throw apiError(403, ErrorCode.CHALLENGE_FAILED, 'Challenge failed')
}
