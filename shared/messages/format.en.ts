/** The numbers, sizes, durations and dates of the English pages (see format.ts). */
import { makeFormat } from '#shared/messages/format'

export { formatCountdown, plural } from '#shared/messages/format'

export const {
  formatCount, formatBytes, formatBytesOf, formatDuration, formatClock, formatEventDate, formatDateTime, formatHour, formatAgo, formatRevealMoment,
} = makeFormat('en', {
  of: 'of',
  seconds: count => (count === 1 ? '1 second' : `${count} seconds`),
  minutes: count => (count === 1 ? '1 minute' : `${count} minutes`),
  minutesAndSeconds: (minutes, seconds) => `${minutes} min ${seconds} s`,
  hour: hour => hour,
  justNow: 'just now',
  minutesAgo: minutes => `${minutes} min ago`,
  hoursAgo: hours => `${hours} h ago`,
  atTime: (hour, minutes) => `at ${hour % 12 || 12}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''} ${hour < 12 ? 'AM' : 'PM'}`,
  today: time => `today ${time}`,
  tomorrow: time => `tomorrow ${time}`,
  onDate: (date, time) => `on ${date} ${time}`,
})
