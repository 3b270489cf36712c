/** The numbers, sizes, durations and dates of the Spanish pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { formatCountdown, plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo, formatRevealMoment,
} = makeFormat('es', {
  of: 'de',
  seconds: count => (count === 1 ? '1 segundo' : `${count} segundos`),
  minutes: count => (count === 1 ? '1 minuto' : `${count} minutos`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => `${hour} h`,
  justNow: 'hace un momento',
  minutesAgo: minutes => `hace ${minutes} min`,
  hoursAgo: hours => `hace ${hours} h`,
  atTime: (hour, minutes) => `${hour === 1 ? 'a la' : 'a las'} ${hour}:${String(minutes).padStart(2, '0')}`,
  today: time => `hoy ${time}`,
  tomorrow: time => `mañana ${time}`,
  onDate: (date, time) => `el ${date} ${time}`,
})
