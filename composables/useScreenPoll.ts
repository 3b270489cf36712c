/**
 * Runs `poll` once the venue screen is mounted and again `periodMs` after each run ends, until it
 * is unmounted: the screen's side lists (the guestbook's messages, the couple's challenges), each
 * on a clock of its own. A screen that shows none of them (`enabled` false) asks for nothing.
 * Unlike `usePolling`, a hidden tab goes on asking: a projector's browser may report itself hidden
 * behind another window and must still have its cards when it is shown again.
 */
export function useScreenPoll(poll: () => Promise<void>, periodMs: number, enabled: boolean) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running = false

  async function run() {
    try {
      await poll()
    }
    finally {
      if (running) timer = setTimeout(run, periodMs)
    }
  }

  onMounted(() => {
    if (!enabled) return
    running = true
    void run()
  })
  onBeforeUnmount(() => {
    running = false
    clearTimeout(timer)
  })
}
