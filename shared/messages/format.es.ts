/** The numbers, sizes, durations and dates of the Spanish pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo,
} = makeFormat('es', {
  of: 'de',
  seconds: count => (count === 1 ? '1 segundo' : `${count} segundos`),
  minutes: count => (count === 1 ? '1 minuto' : `${count} minutos`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => `${hour} h`,
  justNow: 'hace un momento',
  minutesAgo: minutes => `hace ${minutes} min`,
  hoursAgo: hours => `hace ${hours} h`,
})
