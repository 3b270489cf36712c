/** The numbers, sizes, durations and dates of the Brazilian Portuguese pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { formatCountdown, plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo, formatRevealMoment,
} = makeFormat('pt-BR', {
  of: 'de',
  seconds: count => (count === 1 ? '1 segundo' : `${count} segundos`),
  minutes: count => (count === 1 ? '1 minuto' : `${count} minutos`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => `${hour}h`,
  justNow: 'agora mesmo',
  minutesAgo: minutes => `há ${minutes} min`,
  hoursAgo: hours => `há ${hours} h`,
  atTime: (hour, minutes) => `${hour === 1 ? 'à' : 'às'} ${hour}h${minutes ? String(minutes).padStart(2, '0') : ''}`,
  today: time => `hoje ${time}`,
  tomorrow: time => `amanhã ${time}`,
  onDate: (date, time) => `em ${date} ${time}`,
})
