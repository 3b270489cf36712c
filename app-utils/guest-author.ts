import { GUEST_AUTHOR_KEY } from './storage-keys'

/**
 * The guest's name as this device remembers it, for the upload page and the guestbook alike:
 * stored trimmed (spaces typed at its ends are not part of the name the server keeps either).
 */
export function rememberedAuthor(): string {
  try {
    return localStorage.getItem(GUEST_AUTHOR_KEY) ?? ''
  }
  catch {
    return ''
  }
}

export function rememberAuthor(author: string): void {
  try {
    localStorage.setItem(GUEST_AUTHOR_KEY, author.trim())
  }
  catch { /* storage disabled: nothing remembered */ }
}
