import type { InitUploadResponse } from '#shared/schemas/upload'
import type { QueueItem } from './item'

/**
 * "Remover": the phone that sent an upload may take it back for a while after its confirm, with
 * the token init gave it (a capability bound to that upload, kept with the queue item, never an
 * account). After the window only the couple's admin can remove it.
 */
export interface UndoGrant {
  token: string
  windowSec: number
  /** This device's clock when the window closes; null until the upload is confirmed. */
  until: number | null
}

export function grantUndo(item: QueueItem, answer: InitUploadResponse): void {
  item.undo = { token: answer.undoToken, windowSec: answer.undoWindowSec, until: null }
}

/**
 * The window opens at confirm. Counted on this device's clock from the moment the answer came
 * (a phone's clock may be off by minutes; the server's window started slightly earlier, so a
 * tap in the last second may still be refused, and then the button goes).
 */
export function openUndoWindow(item: QueueItem, now = Date.now()): void {
  if (item.undo) item.undo.until = now + item.undo.windowSec * 1000
}

/** Milliseconds the "Remover" button has left (0: none). */
export function undoLeftMs(item: Pick<QueueItem, 'done' | 'duplicate' | 'undo'>, now = Date.now()): number {
  if (!item.done || item.duplicate || !item.undo?.until) return 0
  return Math.max(0, item.undo.until - now)
}
