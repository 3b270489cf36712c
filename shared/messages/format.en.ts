/** The numbers, sizes, durations and dates of the English pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo,
} = makeFormat('en', {
  of: 'of',
  seconds: count => (count === 1 ? '1 second' : `${count} seconds`),
  minutes: count => (count === 1 ? '1 minute' : `${count} minutes`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => hour,
  justNow: 'just now',
  minutesAgo: minutes => `${minutes} min ago`,
  hoursAgo: hours => `${hours} h ago`,
}, { hour: 'numeric', hourCycle: 'h12' })
