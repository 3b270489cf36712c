/**
 * The numbers, sizes, durations and dates of every page, for one language: `Intl` in the page's
 * locale does the digits and the calendar, `words` the few words around them. Each language's
 * `format.<locale>.ts` makes its set once; the guest texts and the admin's hand it out as `format`.
 */

export interface FormatWords {
  /** "12,3 de 35,0 MB": between a part and its total. */
  of: string
  seconds: (count: number) => string
  minutes: (count: number) => string
  /** "2 min 30 s". */
  minutesAndSeconds: (minutes: number, seconds: number) => string
  /** "18h", "6 PM": one hour of the clock, from `Intl`'s hour. */
  hour: (hour: string) => string
  justNow: string
  minutesAgo: (minutes: number) => string
  hoursAgo: (hours: number) => string
  /** "às 22h", "à 1h", "at 10:30 PM": a time of day on the browser's clock. */
  atTime: (hour: number, minutes: number) => string
  /** When a reveal opens the gallery: today, tomorrow, or on a date ("14 de dezembro"). */
  today: (time: string) => string
  tomorrow: (time: string) => string
  onDate: (date: string, time: string) => string
}

/** "1 arquivo", "3 arquivos". */
export const plural = (count: number, one: string, many: string) => (count === 1 ? one : many)

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB']

/**
 * A whole number from 0 to 999, which `Intl` writes as plain digits in every language we speak
 * (tests/unit/messages.test.ts holds it to that). A page's first `Intl` formatter loads its
 * locale's data: 57 ms of /enviar's hydration under the bench's 4× slower CPU, for a first paint
 * whose only numbers are such ("até 500 MB por arquivo").
 */
const plainDigits = (value: number) => Number.isInteger(value) && value >= 0 && value < 1000

/** `value` as `formatter` writes it, without making the formatter for plain digits. */
const written = (value: number, formatter: () => Intl.NumberFormat) => (plainDigits(value) ? String(value) : formatter().format(value))

/** `make()`'s value, made the first time it is asked for. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined
  return () => (value ??= make())
}

/**
 * How a language writes the hour of a time of day: "18:04" on a 24-hour clock, "3:40 AM" on
 * English's 12-hour one, whose hour has no leading zero ("03:40 AM" reads as a machine's).
 */
export function hourOptionsOf(locale: string): Pick<Intl.DateTimeFormatOptions, 'hour' | 'hourCycle'> {
  return locale.startsWith('en') ? { hour: 'numeric', hourCycle: 'h12' } : { hour: '2-digit', hourCycle: 'h23' }
}

const momentFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * "22/11/2026, 18:04", "11/22/2026, 3:40 AM": a moment with its year, on the clock of `timeZone`
 * (for what is printed or made on the server, where no browser says where the reader is).
 */
export function formatMoment(locale: string, date: Date | string, timeZone: string): string {
  const key = `${locale}\u0000${timeZone}`
  let format = momentFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', minute: '2-digit', ...hourOptionsOf(locale) })
    momentFormats.set(key, format)
  }
  // Newer ICU data writes "3:40\u202fAM" (a narrow space, which a PDF's typeface may not have):
  // the plain space that older data writes, in every typeface.
  return format.format(new Date(date)).replaceAll('\u202f', ' ')
}

export function makeFormat(locale: string, words: FormatWords, hourOptions: Intl.DateTimeFormatOptions = hourOptionsOf(locale)) {
  // Made on first use: a formatter costs a few milliseconds on a slow phone (the locale's data is
  // loaded), and most pages show a size or a date, not all seven kinds.
  const decimal = lazy(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }))
  const integer = lazy(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }))
  const fixed = lazy(() => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }))
  const calendarDate = lazy(() => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }))
  const dateTime = lazy(() => new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', minute: '2-digit', ...hourOptionsOf(locale) }))
  const hour = lazy(() => new Intl.DateTimeFormat(locale, hourOptions))
  const dayAndMonth = lazy(() => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long' }))

  /** "1.234": a count with the thousands separated. */
  function formatCount(count: number): string {
    return written(count, integer)
  }

  /** Sizes as people read them on a phone: "3,2 MB", "1,5 GB" (binary units, the way phones count). */
  function formatBytes(bytes: number): string {
    let value = bytes
    let unit = 0
    while (value >= 1024 && unit < UNITS.length - 1) {
      value /= 1024
      unit++
    }
    const shown = unit === 0 ? value : Math.round(value * 10) / 10
    return `${written(shown, decimal)} ${UNITS[unit]}`
  }

  /** "12,3 de 35,0 MB": part of a total, both in the total's unit, so the two read side by side. */
  function formatBytesOf(part: number, total: number): string {
    let unit = 0
    while (total / 1024 ** unit >= 1024 && unit < UNITS.length - 1) unit++
    if (unit === 0) return `${formatCount(part)} ${words.of} ${formatCount(total)} bytes`
    const of = (bytes: number) => fixed().format(Math.floor((bytes / 1024 ** unit) * 10) / 10)
    return `${of(part)} ${words.of} ${of(total)} ${UNITS[unit]}`
  }

  /** "45 segundos", "5 minutos", "2 min 30 s": a video's limit, or how long to wait. */
  function formatDuration(seconds: number): string {
    const total = Math.round(seconds)
    const minutes = Math.floor(total / 60)
    const rest = total % 60
    if (minutes === 0) return words.seconds(total)
    if (rest === 0) return words.minutes(minutes)
    return words.minutesAndSeconds(minutes, rest)
  }

  /** "1:05" for a video's length. */
  function formatClock(seconds: number): string {
    const total = Math.round(seconds)
    const minutes = Math.floor(total / 60)
    return `${minutes}:${String(total % 60).padStart(2, '0')}`
  }

  /** "12 de dezembro de 2026" from "2026-12-12" (a calendar date: no time zone may move it). */
  function formatEventDate(isoDate: string): string {
    const date = new Date(`${isoDate}T12:00:00Z`)
    if (Number.isNaN(date.getTime())) return ''
    return calendarDate().format(date)
  }

  /** "22/11, 18:04" in the browser's own time zone: when a guest sent something during the party. */
  function formatDateTime(iso: string): string {
    return dateTime().format(new Date(iso))
  }

  /** "18h" for one bar of the uploads-per-hour chart. */
  function formatHour(iso: string): string {
    return words.hour(hour().format(new Date(iso)))
  }

  /** "há 3 min", "há 2 h", or the date when older than a day. */
  function formatAgo(iso: string, now = Date.now()): string {
    const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))
    if (seconds < 60) return words.justNow
    const minutes = Math.floor(seconds / 60)
    if (minutes < 60) return words.minutesAgo(minutes)
    const hours = Math.floor(minutes / 60)
    if (hours < 24) return words.hoursAgo(hours)
    return formatDateTime(iso)
  }

  const dayStart = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()

  /**
   * "hoje às 22h", "amanhã às 10h", "em 14 de dezembro às 10h30": when a reveal opens the gallery,
   * in the browser's own time zone (the guest is at the party).
   */
  function formatRevealMoment(iso: string, now = Date.now()): string {
    const at = new Date(iso)
    const time = words.atTime(at.getHours(), at.getMinutes())
    const days = Math.round((dayStart(at) - dayStart(new Date(now))) / 86_400_000)
    if (days === 0) return words.today(time)
    if (days === 1) return words.tomorrow(time)
    return words.onDate(dayAndMonth().format(at), time)
  }

  return { formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo, formatRevealMoment }
}

/** "2 d 3 h", "3 h 05 min", "4 min 09 s", "12 s": the time left until a moment (the same in our three languages). */
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
