import type { EventLimits } from '#shared/media/checks'

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
 * WebM carries none in its header.
 */
export function useVoiceRecorder(maxSeconds: () => number) {
  const state = ref<'idle' | 'recording' | 'recorded' | 'queued'>('idle')
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
    const queue = useUploadQueue()
    queue.start()
    const refused = await queue.addFiles([file], limits, { author, message: '' })
    if (refused.length > 0) {
      problem.value = true
      return
    }
    discard()
    state.value = 'queued'
  }

  onBeforeUnmount(() => {
    stop()
    release()
  })

  return { state, recording, elapsed, secondsLeft, problem, start, stop, discard, send }
}
