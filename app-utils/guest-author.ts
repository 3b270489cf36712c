/** Where this device remembers the guest's name, for the upload page and the guestbook alike. */
export const GUEST_AUTHOR_KEY = 'event-media:author'

/** The name this device remembers, or '' (storage disabled, or never given). */
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
