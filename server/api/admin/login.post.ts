import { ErrorCode } from '#shared/errors'
import { loginSchema } from '#shared/schemas/auth'

// Failed attempts only: an admin who types the password right is never slowed down.
const PER_CLIENT = { capacity: 10, refillPerSecond: 1 / 30 }
const PER_EMAIL = { capacity: 5, refillPerSecond: 1 / 60 }

export default defineEventHandler(async (event) => {
  const { email, password } = await readBodyAs(event, loginSchema)
  const client = clientKey(event)
  const emailKey = email.toLowerCase()
  await assertNotLimited(event, 'login-client', client, PER_CLIENT)
  await assertNotLimited(event, 'login-email', emailKey, PER_EMAIL)

  // Both checks always run, so the answer's timing does not tell which one failed.
  const allowed = isAllowedAdmin(email)
  const passwordOk = passwordMatches(password)
  if (!allowed || !passwordOk) {
    await recordHit('login-client', client, PER_CLIENT)
    await recordHit('login-email', emailKey, PER_EMAIL)
    throw apiError(401, ErrorCode.INVALID_CREDENTIALS, 'Invalid credentials')
  }
  setSessionCookie(event, await issueSessionToken(emailKey))
  return { email: emailKey }
})
