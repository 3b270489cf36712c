/**
 * A file name's stem from free text: "Ana & João" → "ana-e-joao". Accents dropped, "&" read as
 * "e" (Portuguese), anything else that is not a letter or digit becomes one hyphen.
 */
export function fileSlug(text: string, fallback = 'evento'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' e ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug || fallback
}
