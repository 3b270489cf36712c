import type { H3Event } from 'h3'

/**
 * Who may read the guestbook: the same guests who may see the gallery. The one place the
 * guestbook's public reads ask; the gallery's own access rule (modes, PIN) belongs here once it
 * exists, so that both answer alike.
 */
export async function requireGuestbookAccess(_event: H3Event): Promise<void> {}
