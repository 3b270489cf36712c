import { createHash, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'
import { eq, sql } from 'drizzle-orm'
import { revokedTokens } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { normaliseEmail } from '#shared/schemas/auth'
import { builtOnce } from '../db'
import { signToken, verifyToken, type TokenAudience, type TokenClaims } from './signed-token'

export const SESSION_COOKIE = 'em_admin'
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60
const AUDIENCE: TokenAudience = 'event-media-admin'

export interface AdminSession {
  email: string
  jti: string
  expiresAt: Date
}

/** Verified tokens kept at most: a few admins, each with a token or two a week. */
const MAX_VERIFIED_TOKENS = 256
const verified = new Map<string, TokenClaims>()

/**
 * The claims of a token whose signature, issuer and audience were checked, or throws as jose
 * does. A token's signature and claims never change, so each is verified once and kept until it
 * expires: on an admin request answered from memory, verifying the token again every time was
 * the larger part of its cost. Only this: the allowed list and revocation are read every time.
 */
async function verifiedClaims(token: string): Promise<TokenClaims> {
  const kept = verified.get(token)
  if (kept && kept.expiresAt.getTime() > Date.now()) return kept
  verified.delete(token)
  const claims = await verifyToken(token, AUDIENCE)
  if (verified.size >= MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value!)
  verified.set(token, claims)
  return claims
}

// Read on every admin request.
const revokedRead = builtOnce(db => db.select({ jti: revokedTokens.jti }).from(revokedTokens)
  .where(eq(revokedTokens.jti, sql.placeholder('jti'))).prepare())

async function isRevoked(jti: string): Promise<boolean> {
  return (await revokedRead().get({ jti })) !== undefined
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/** Constant-time: both sides are hashed to 32 bytes first, so lengths never differ or leak. */
export function passwordMatches(candidate: string): boolean {
  return timingSafeEqual(digest(candidate), digest(useConfig().ADMIN_PASSWORD))
}

export function isAllowedAdmin(email: string): boolean {
  return useConfig().ALLOWED_ADMIN_EMAILS.includes(normaliseEmail(email))
}

export function issueSessionToken(email: string): Promise<string> {
  return signToken(AUDIENCE, email, SESSION_MAX_AGE_SECONDS, { email })
}

export function setSessionCookie(event: H3Event, token: string) {
  setCookie(event, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: SESSION_MAX_AGE_SECONDS,
    secure: isHttpsRequest(event),
  })
}

export function clearSessionCookie(event: H3Event) {
  deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' })
}

/** The admin behind the request's cookie, or null when there is none or it is not valid. */
export async function getAdminSession(event: H3Event): Promise<AdminSession | null> {
  const token = getCookie(event, SESSION_COOKIE)
  if (!token) return null
  try {
    const claims = await verifiedClaims(token)
    // Normalised here too, so the session names the admin exactly as the allowed list does.
    const email = normaliseEmail(claims.subject)
    if (!isAllowedAdmin(email)) return null
    // Every time, from the database: a logout on any instance ends the session at once.
    if (await isRevoked(claims.jti)) return null
    return { email, jti: claims.jti, expiresAt: claims.expiresAt }
  }
  catch (error) {
    if (isDatabaseBusy(error)) throw error
    return null
  }
}

/** The first call of every admin route: the session, or 401 UNAUTHENTICATED. */
export async function requireAdmin(event: H3Event): Promise<AdminSession> {
  const session = await getAdminSession(event)
  if (!session) throw apiError(401, ErrorCode.UNAUTHENTICATED, 'Unauthenticated')
  event.context.admin = session
  return session
}

export async function revokeSession(session: AdminSession): Promise<void> {
  await useDb().insert(revokedTokens).values({ jti: session.jti, expiresAt: session.expiresAt }).onConflictDoNothing()
}

declare module 'h3' {
  interface H3EventContext {
    admin?: AdminSession
  }
}
