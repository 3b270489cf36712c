import { randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { useConfig } from '../config'

/*
 * The service's signed tokens: the admin's session and the admin's device cookie. Both are JWTs
 * (HS256 with SESSION_SECRET) from one issuer, each with an audience of its own, so that one is
 * never accepted as the other.
 */
const ISSUER = 'event-media'

export type TokenAudience = 'event-media-admin' | 'event-media-device'

export interface TokenClaims {
  subject: string
  jti: string
  expiresAt: Date
}

let imported: { secret: string, key: Promise<CryptoKey> } | undefined

/**
 * The secret as a key imported once: given raw bytes, jose imports them again on every call,
 * which was a tenth of an admin request's time.
 */
function signingKey(): Promise<CryptoKey> {
  const secret = useConfig().SESSION_SECRET
  if (imported?.secret !== secret) {
    imported = { secret, key: crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) }
  }
  return imported.key
}

/** A fresh token for `subject`, with a random id (`jti`), valid `maxAgeSeconds`. */
export async function signToken(audience: TokenAudience, subject: string, maxAgeSeconds: number, claims: Record<string, string> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setSubject(subject)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${maxAgeSeconds}s`)
    .sign(await signingKey())
}

/**
 * The claims of a token whose signature, issuer, audience (and `subject`, when given) were
 * checked and which has not expired; throws as jose does otherwise.
 */
export async function verifyToken(token: string, audience: TokenAudience, subject?: string): Promise<TokenClaims> {
  const { payload } = await jwtVerify(token, await signingKey(), {
    algorithms: ['HS256'],
    issuer: ISSUER,
    audience,
    subject,
    requiredClaims: ['jti', 'exp', 'sub'],
  })
  return { subject: payload.sub!, jti: payload.jti!, expiresAt: new Date(payload.exp! * 1000) }
}
