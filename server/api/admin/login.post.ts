import { ErrorCode } from '#shared/errors'
import { loginSchema, normaliseEmail } from '#shared/schemas/auth'

export default defineEventHandler(async (event) => {
  const body = await readBodyAs(event, loginSchema)
  const email = normaliseEmail(body.email)
  // Taken before the password is looked at: a burst gets no more guesses evaluated than the limit.
  const buckets = await loginBuckets(event, email)
  await takeTokens(event, buckets)

  // Both checks always run, so the answer's timing does not tell which one failed.
  const allowed = isAllowedAdmin(email)
  const passwordOk = passwordMatches(body.password)
  if (!allowed || !passwordOk) throw apiError(401, ErrorCode.INVALID_CREDENTIALS, 'Invalid credentials')

  // Failed attempts only count: an admin who types the password right is never slowed down.
  await returnTokens(buckets)
  setSessionCookie(event, await issueSessionToken(email))
  await setDeviceCookie(event, email)
  return { email }
})
