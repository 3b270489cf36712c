/*
 * The export archive's CSV, written by every feature that puts a sheet in it (manifest.csv,
 * guestbook.csv): one rule for a cell, whoever writes the line.
 */

/**
 * One CSV cell (RFC 4180). A cell that a spreadsheet would run as a formula (starting with
 * = + - @, tab or carriage return) gets a leading apostrophe: guests type the author and message.
 */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}
