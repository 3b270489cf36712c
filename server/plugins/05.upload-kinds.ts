import { assertAudioAcceptable } from '../utils/guestbook/audio'
import { cleanServedAudio } from '../utils/guestbook/audio-confirm'
import { registerUploadKind } from '../utils/uploads/kind-steps'

/**
 * The upload kinds other features own, handed to uploads/ before the first request: a spoken
 * guestbook message is accepted at init and cleaned at confirm by the guestbook's own rules.
 */
export default defineNitroPlugin(() => {
  registerUploadKind('audio', { atInit: assertAudioAcceptable, atConfirm: cleanServedAudio })
})
