import type { EventSettingsRow, UploadRow } from '../../../db/schema'
import type { MediaKind } from '#shared/enums'
import type { InitUploadBody } from '#shared/schemas/upload'

/**
 * What a kind of upload brings beyond the photo and the video this folder knows itself. A spoken
 * guestbook message is an upload too, but its rules are the guestbook's: the feature that owns a
 * kind registers its steps at start (server/plugins/), and init and confirm ask for them by kind,
 * so that the feature may use uploads/ and uploads/ never imports the feature.
 */
export interface UploadKindSteps {
  /** At init, before the record: refuses a file the event does not accept, with the contract's code. */
  atInit(body: InitUploadBody, settings: EventSettingsRow): void
  /**
   * At confirm, on the bytes at their served key (size, kind and hash already checked): why they
   * cannot be vouched for (confirm refuses them, 422), or the length to keep.
   */
  atConfirm(row: UploadRow, size: number): Promise<{ problem: string } | { durationSec: number | null }>
}

const OWN_KINDS: readonly MediaKind[] = ['photo', 'video']
const registered = new Map<MediaKind, UploadKindSteps>()

export function registerUploadKind(kind: MediaKind, steps: UploadKindSteps): void {
  registered.set(kind, steps)
}

/**
 * A kind's steps, or none for the photo and the video. A kind nobody registered is an error, not
 * a file let through unchecked (a spoken message's tags and position must be blanked).
 */
export function stepsOfKind(kind: MediaKind): UploadKindSteps | undefined {
  if (OWN_KINDS.includes(kind)) return undefined
  const steps = registered.get(kind)
  if (!steps) throw new Error(`no upload steps are registered for the kind '${kind}'`)
  return steps
}
