const HOUR_MS = 3_600_000

export interface HourBucket {
  hour: string
  count: number
}

/**
 * The bars of the uploads-per-hour chart: the server leaves hours without uploads out, the chart
 * shows them as empty bars so the time axis stays even. At most `maxBars` hours, ending at the
 * latest one with uploads (a party's evening, not the whole week before it).
 */
export function hourlyBars(perHour: HourBucket[], maxBars = 24): HourBucket[] {
  if (perHour.length === 0) return []
  const counts = new Map(perHour.map(bucket => [new Date(bucket.hour).getTime(), bucket.count]))
  const times = [...counts.keys()]
  const last = Math.max(...times)
  const first = Math.max(Math.min(...times), last - (maxBars - 1) * HOUR_MS)
  const bars: HourBucket[] = []
  for (let at = first; at <= last; at += HOUR_MS) {
    bars.push({ hour: new Date(at).toISOString(), count: counts.get(at) ?? 0 })
  }
  return bars
}
