// The yardstick HTTP sets for bench/uploads.ts: a bare node:http server, in a process of its own as
// the service is, that streams each PUT body to a file. Started by bench/uploads.ts:
// `tsx bench/support/put-baseline.ts <dir> <port>`.
import { createWriteStream } from 'node:fs'
import { createServer } from 'node:http'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'

const [dir, portText] = process.argv.slice(2)
if (!dir || !portText) throw new Error('usage: put-baseline.ts <dir> <port>')
const server = createServer((req, res) => {
  pipeline(req, createWriteStream(join(dir, basename(req.url ?? 'x')), { highWaterMark: 1024 * 1024 }))
    .then(() => res.end(), () => res.writeHead(500).end())
})
server.listen(Number(portText), '127.0.0.1', () => console.log(`listening ${portText}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
