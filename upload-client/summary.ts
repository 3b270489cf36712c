import type { QueueItem } from './item'

/**
 * The whole batch at a glance, for the bar that stays in view while files go: how many are
 * finished, how many bytes of how many, and whether the queue is moving, waiting for the network,
 * finished, or stopped on files that need the guest.
 */
export type SummaryState = 'idle' | 'sending' | 'paused' | 'done' | 'failed'
/** What the bar shows: the summary's state, or `stalled` when sending but no byte moved for a while (the page decides). */
export type ShownSummaryState = SummaryState | 'stalled'

export interface UploadSummary {
  state: SummaryState
  /** Files finished (confirmed by the server). */
  done: number
  /** Files the guest sent (a record kept from before files went when picked, still unsent, is not counted). */
  total: number
  /** Files stopped on an error. */
  failed: number
  sentBytes: number
  totalBytes: number
  /** 0–100 by bytes; 100 only once every file is finished, so a full bar always means done. */
  percent: number
}

const ACTIVE = new Set<QueueItem['phase']>(['queued', 'sending', 'paused', 'retrying', 'finishing'])

export function summarize(items: readonly Pick<QueueItem, 'phase' | 'done' | 'size' | 'sentBytes'>[], online: boolean): UploadSummary {
  let done = 0
  let total = 0
  let failed = 0
  let active = 0
  let paused = false
  let sentBytes = 0
  let totalBytes = 0
  for (const item of items) {
    if (item.phase === 'waiting') continue
    total++
    totalBytes += item.size
    if (item.done) {
      done++
      sentBytes += item.size
      continue
    }
    sentBytes += Math.min(item.sentBytes, item.size)
    if (item.phase === 'error') failed++
    if (ACTIVE.has(item.phase)) active++
    if (item.phase === 'paused') paused = true
  }
  const allDone = total > 0 && done === total
  const percent = allDone ? 100 : totalBytes ? Math.min(99, Math.floor((sentBytes / totalBytes) * 100)) : 0
  let state: SummaryState = 'idle'
  if (allDone) state = 'done'
  else if (active > 0) state = !online || paused ? 'paused' : 'sending'
  else if (total > 0) state = 'failed'
  return { state, done, total, failed, sentBytes, totalBytes, percent }
}
