import { z } from './zod'

/**
 * Emails are compared trimmed and lower-cased everywhere: the allowed list, a login, the email a
 * session token or a device cookie names.
 */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export const loginSchema = z.strictObject({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
})
