// Preloaded into the server (NODE_OPTIONS=--require, since --cpu-prof is not allowed there) by
// `bench/gallery.ts --server-cpu-prof DIR`: profiles the whole process and writes
// DIR/server-<pid>.cpuprofile when it exits (open it in Chrome DevTools or speedscope).
const { Session } = require('node:inspector')
const { writeFileSync } = require('node:fs')
const { join } = require('node:path')

const dir = process.env.BENCH_CPU_PROFILE_DIR
if (dir) {
  const session = new Session()
  session.connect()
  session.post('Profiler.enable')
  session.post('Profiler.start')
  process.on('exit', () => {
    // The in-process session answers synchronously, so this runs before the process is gone.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile))
    })
  })
}
