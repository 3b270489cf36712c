/**
 * The numbers, sizes, durations and dates of every page, in Brazilian Portuguese, written once:
 * the guest texts (`pt-BR.ts`) and the admin's (`admin.pt-BR.ts`) both hand these out as `format`.
 */

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 })
const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 })

/** "1 arquivo", "3 arquivos". */
export const plural = (count: number, one: string, many: string) => (count === 1 ? one : many)

/** "1.234": a count with the thousands separated. */
export function formatCount(count: number): string {
  return integer.format(count)
}

/** Sizes as people read them on a phone: "3,2 MB", "1,5 GB" (binary units, the way phones count). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${decimal.format(unit === 0 ? value : Math.round(value * 10) / 10)} ${units[unit]}`
}

/** "12,3 de 35,0 MB": part of a total, both in the total's unit, so the two read side by side. */
export function formatBytesOf(part: number, total: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let unit = 0
  while (total / 1024 ** unit >= 1024 && unit < units.length - 1) unit++
  if (unit === 0) return `${integer.format(part)} de ${integer.format(total)} bytes`
  const fixed = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const of = (bytes: number) => fixed.format(Math.floor((bytes / 1024 ** unit) * 10) / 10)
  return `${of(part)} de ${of(total)} ${units[unit]}`
}

/** "45 segundos, "5 minutos", "2 min 30 s": a video's limit, or how long to wait. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds)
  const minutes = Math.floor(total / 60)
  const rest = total % 60
  if (minutes === 0) return total === 1 ? '1 segundo' : `${total} segundos`
  if (rest === 0) return minutes === 1 ? '1 minuto' : `${minutes} minutos`
  return `${minutes} min ${rest} s`
}

/** "1:05" for a video's length. */
export function formatClock(seconds: number): string {
  const total = Math.round(seconds)
  const minutes = Math.floor(total / 60)
  return `${minutes}:${String(total % 60).padStart(2, '0')}`
}

/** "12 de dezembro de 2026" from "2026-12-12" (a calendar date: no time zone may move it). */
export function formatEventDate(isoDate: string): string {
  const date = new Date(`${isoDate}T12:00:00Z`)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date)
}

/** "22/11, 18:04" in the browser's own time zone: when a guest sent something during the party. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(iso))
}

/** "18h" for one bar of the uploads-per-hour chart. */
export function formatHour(iso: string): string {
  return `${new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', hourCycle: 'h23' }).format(new Date(iso))}h`
}

/** "há 3 min", "há 2 h", or the date when older than a day. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))
  if (seconds < 60) return 'agora mesmo'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `há ${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `há ${hours} h`
  return formatDateTime(iso)
}

const dayStart = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()

/**
 * "hoje às 22h", "amanhã às 10h", "em 14 de dezembro às 10h30": when a reveal opens the gallery,
 * in the browser's own time zone (the guest is at the party).
 */
export function formatRevealMoment(iso: string, now = Date.now()): string {
  const at = new Date(iso)
  const hour = at.getHours()
  const minutes = at.getMinutes()
  const time = `${hour === 1 ? 'à' : 'às'} ${hour}h${minutes ? String(minutes).padStart(2, '0') : ''}`
  const days = Math.round((dayStart(at) - dayStart(new Date(now))) / 86_400_000)
  if (days === 0) return `hoje ${time}`
  if (days === 1) return `amanhã ${time}`
  return `em ${new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long' }).format(at)} ${time}`
}

/** "2 d 3 h", "3 h 05 min", "4 min 09 s", "12 s": the time left until a moment. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const days = Math.floor(total / 86_400)
  const hours = Math.floor((total % 86_400) / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  const two = (value: number) => String(value).padStart(2, '0')
  if (days > 0) return `${days} d ${hours} h`
  if (hours > 0) return `${hours} h ${two(minutes)} min`
  if (minutes > 0) return `${minutes} min ${two(seconds)} s`
  return `${seconds} s`
}
