const HOUR_MS = 3_600_000

export interface HourBucket {
  hour: string
  count: number
}

/**
 * The bars of the uploads-per-hour chart: the server leaves hours without uploads out, the chart
 * shows them as empty bars so the time axis stays even. Between `minBars` and `maxBars` hours,
 * ending at the latest one with uploads: a party's evening, not the week before it, and not one
 * lonely bar filling the chart in the first hour.
 */
export function hourlyBars(perHour: HourBucket[], maxBars = 24, minBars = 12): HourBucket[] {
  if (perHour.length === 0) return []
  const counts = new Map(perHour.map(bucket => [new Date(bucket.hour).getTime(), bucket.count]))
  const times = [...counts.keys()]
  const last = Math.max(...times)
  const first = Math.min(
    Math.max(Math.min(...times), last - (maxBars - 1) * HOUR_MS),
    last - (minBars - 1) * HOUR_MS,
  )
  const bars: HourBucket[] = []
  for (let at = first; at <= last; at += HOUR_MS) {
    bars.push({ hour: new Date(at).toISOString(), count: counts.get(at) ?? 0 })
  }
  return bars
}
