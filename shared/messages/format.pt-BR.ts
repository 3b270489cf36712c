/** The numbers, sizes, durations and dates of the Brazilian Portuguese pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo,
} = makeFormat('pt-BR', {
  of: 'de',
  seconds: count => (count === 1 ? '1 segundo' : `${count} segundos`),
  minutes: count => (count === 1 ? '1 minuto' : `${count} minutos`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => `${hour}h`,
  justNow: 'agora mesmo',
  minutesAgo: minutes => `há ${minutes} min`,
  hoursAgo: hours => `há ${hours} h`,
})
