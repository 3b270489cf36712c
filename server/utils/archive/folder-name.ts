/**
 * Folder names in the export archive, made from the couple's own words (a moment's name, shown as
 * typed: `Cerimônia/`). The name has passed the text rules already (no control or invisible
 * characters); what stays dangerous is what an unzip tool reads as a path or a device: separators,
 * the characters Windows refuses, and leading or trailing dots and spaces (`..`, `.hidden`, `name.`).
 */
const UNSAFE = /[/\\:*?"<>|]/g

export function archiveFolderName(name: string): string {
  return name.replace(UNSAFE, '-').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 80) || '-'
}

/**
 * One folder per entry, distinct even where two names clean up the same (`A/B` and `A-B`) or differ
 * only in case (Windows and macOS file systems would merge them): the later gets ` (2)`, ` (3)`…
 */
export function archiveFolderNames(names: { id: string, name: string }[]): Map<string, string> {
  const taken = new Set<string>()
  const folders = new Map<string, string>()
  for (const { id, name } of names) {
    const base = archiveFolderName(name)
    let folder = base
    for (let n = 2; taken.has(folder.toLowerCase()); n++) folder = `${base} (${n})`
    taken.add(folder.toLowerCase())
    folders.set(id, folder)
  }
  return folders
}
