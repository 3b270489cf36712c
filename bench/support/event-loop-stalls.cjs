// Preloaded into the server (NODE_OPTIONS=--require) by bench/guestbook-book.ts: measures how long
// the server's event loop is held, from inside. A timer due every 5 ms notes each late turn: its
// wall time, and the CPU time the process used meanwhile. On a busy shared machine the wall time
// also counts the waits for a core (the server not running at all); the CPU time is the work that
// held the loop (it includes the process's other threads, GC and libSQL, so it errs on the long side).
// SIGUSR2 writes the longest stalls since the last SIGUSR2 to BENCH_STALLS_FILE and starts afresh.
const { writeFileSync } = require('node:fs')

const file = process.env.BENCH_STALLS_FILE
if (file) {
  const TICK_MS = 5
  let longest = { wallMs: 0, cpuMs: 0 }
  let mostCpu = { wallMs: 0, cpuMs: 0 }
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  setInterval(() => {
    const now = performance.now()
    const cpu = process.cpuUsage(lastCpu)
    const turn = { wallMs: now - last - TICK_MS, cpuMs: (cpu.user + cpu.system) / 1000 }
    if (turn.wallMs > longest.wallMs) longest = turn
    if (turn.cpuMs > mostCpu.cpuMs) mostCpu = turn
    last = now
    lastCpu = process.cpuUsage()
  }, TICK_MS).unref()
  process.on('SIGUSR2', () => {
    writeFileSync(file, JSON.stringify({ longest, mostCpu }))
    longest = { wallMs: 0, cpuMs: 0 }
    mostCpu = { wallMs: 0, cpuMs: 0 }
  })
}
