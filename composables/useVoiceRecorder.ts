import { useNow } from '@vueuse/core'
import type { EventLimits } from '#shared/media/checks'
import { undoLeftMs } from '~/upload-client/undo'

export interface Recording {
  blob: Blob
  url: string
  contentType: string
  durationSec: number
}

/** What the browser records in, best first: Opus in WebM (Chromium, Firefox), else AAC in MP4 (Safari). */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus']

function recordingType(): string | undefined {
  return RECORDING_TYPES.find(type => MediaRecorder.isTypeSupported(type))
}

/**
 * The microphone, recorded with MediaRecorder up to `maxSeconds` (it stops itself there), kept as
 * one Blob to play back before it is sent. The duration is the recorder's own clock: recorded
 * WebM carries none in its header. Once sent, the recording is a row of the upload queue: its
 * arrival, and the undo its token allows while the window lasts, are read from that row.
 */
export function useVoiceRecorder(maxSeconds: () => number) {
  const state = ref<'idle' | 'recording' | 'recorded' | 'queued'>('idle')
  /** The queue's row of the recording last sent, while the page shows its fate. */
  const sentKey = ref<string | null>(null)
  /** The last recording sent was taken back ("Desfazer"). */
  const undone = ref(false)
  const queue = import.meta.client ? useUploadQueue() : null
  const sentItem = computed(() => (sentKey.value ? queue?.items.value.find(item => item.key === sentKey.value) ?? null : null))
  /** The server has it: confirmed, with its status ('approved' or 'pending'). */
  const arrived = computed(() => (sentItem.value?.done ? sentItem.value : null))
  // The undo button goes when the window closes, without a tap to find out.
  const now = useNow({ interval: 1000 })
  const canUndo = computed(() => !!arrived.value && undoLeftMs(arrived.value, now.value.getTime()) > 0)
  /** Why the last "Desfazer" did not take it back, in the guest's words. */
  const undoProblem = computed(() => arrived.value?.error ?? '')
  const recording = ref<Recording | null>(null)
  const elapsed = ref(0)
  const problem = ref(false)
  const secondsLeft = computed(() => Math.max(0, maxSeconds() - elapsed.value))
  let recorder: MediaRecorder | null = null
  let stream: MediaStream | null = null
  let ticker: ReturnType<typeof setInterval> | undefined
  let startedAt = 0

  function release() {
    clearInterval(ticker)
    stream?.getTracks().forEach(track => track.stop())
    stream = null
  }

  async function start() {
    problem.value = false
    undone.value = false
    // "Record another": the one sent before stays sent; the page now shows the new one.
    if (state.value === 'queued') {
      sentKey.value = null
      state.value = 'idle'
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true })
      const mimeType = recordingType()
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined)
    }
    catch {
      release()
      problem.value = true
      return
    }
    const chunks: Blob[] = []
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data)
    }
    recorder.onstop = () => {
      const durationSec = Math.min(maxSeconds(), (performance.now() - startedAt) / 1000)
      release()
      // The container's family, without codecs: what the server accepts as contentType.
      const contentType = (recorder?.mimeType || 'audio/webm').split(';')[0]!
      const blob = new Blob(chunks, { type: contentType })
      recording.value = { blob, url: URL.createObjectURL(blob), contentType, durationSec }
      state.value = 'recorded'
    }
    startedAt = performance.now()
    elapsed.value = 0
    recorder.start(1000)
    state.value = 'recording'
    ticker = setInterval(() => {
      elapsed.value = Math.floor((performance.now() - startedAt) / 1000)
      // Half a second early: the file's own length, read again before it is sent, must stay within the limit.
      if ((performance.now() - startedAt) / 1000 >= maxSeconds() - 0.5) stop()
    }, 250)
  }

  function stop() {
    if (recorder?.state === 'recording') recorder.stop()
  }

  function discard() {
    if (recording.value) URL.revokeObjectURL(recording.value.url)
    recording.value = null
    state.value = 'idle'
  }

  /** Hands the recording to the upload queue, which keeps it in the browser until the server confirms it. */
  async function send(author: string, limits: EventLimits) {
    const taken = recording.value
    if (!taken) return
    const extension = taken.contentType === 'audio/mp4' ? 'm4a' : taken.contentType === 'audio/ogg' ? 'ogg' : 'webm'
    const file = new File([taken.blob], `recado.${extension}`, { type: taken.contentType })
    if (!queue) return
    queue.start()
    const before = new Set(queue.items.value.map(item => item.key))
    const refused = await queue.addFiles([file], limits, { author, message: '' })
    if (refused.length > 0) {
      problem.value = true
      return
    }
    discard()
    sentKey.value = queue.items.value.find(item => !before.has(item.key))?.key ?? null
    state.value = 'queued'
  }

  /** Takes the sent recording back from the server, while its undo window lasts. */
  async function undo() {
    if (!queue || !sentKey.value || !canUndo.value) return
    // Refused (the window closed meanwhile), the row says why: `undoProblem`.
    if (!(await queue.removeSent(sentKey.value))) return
    sentKey.value = null
    undone.value = true
    state.value = 'idle'
  }

  onBeforeUnmount(() => {
    stop()
    release()
  })

  return { state, recording, elapsed, secondsLeft, problem, arrived, canUndo, undoProblem, undone, start, stop, discard, send, undo }
}
