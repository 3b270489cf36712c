import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { jpeg, mp4 } from '../support/fixtures'
import { keyOfUrl, uploadFile } from '../support/uploads'

/**
 * A power cut cannot be staged here, so strace (installed by .ci/run) watches the real server's
 * fsync calls instead: before a confirm answers 200, the original's bytes and its directory entry
 * must have been synced to the disk, since the guest's phone forgets its copy once told "sent".
 */
async function traceFsyncs(pid: number, during: () => Promise<void>): Promise<string[]> {
  const log = join(tmpdir(), `fsync-${pid}-${Date.now()}.log`)
  // -f with -p attaches every thread: libuv's pool runs the syncs. -y prints each fd's path.
  const strace = spawn('strace', ['-f', '-qq', '-y', '-e', 'trace=fsync,fdatasync', '-o', log, '-p', String(pid)], { stdio: 'ignore' })
  const exited = new Promise(resolve => strace.once('exit', resolve))
  const attachedBy = Date.now() + 5000
  while (!existsSync(log) && Date.now() < attachedBy) await new Promise(resolve => setTimeout(resolve, 50))
  await new Promise(resolve => setTimeout(resolve, 300))
  try {
    await during()
  }
  finally {
    strace.kill('SIGINT') // detaches; the server goes on
    await exited
  }
  const lines = readFileSync(log, 'utf8').split('\n').filter(line => /fsync|fdatasync/.test(line) && /= 0$/.test(line))
  rmSync(log, { force: true })
  return lines
}

describe('a confirmed upload is on the disk before the guest is told so (local driver)', () => {
  const server = useTestServer()

  it('syncs the original and its folder, for a single PUT and for joined parts', async () => {
    const photo = await jpeg(40, 30)
    const video = mp4(51 * 1024 * 1024)
    let keys: string[] = []
    const synced = await traceFsyncs(server.proc.pid!, async () => {
      const single = await uploadFile(server.url, photo, { contentType: 'image/jpeg', fileName: 'a.jpg', size: photo.length })
      const parts = await uploadFile(server.url, video, { contentType: 'video/mp4', fileName: 'v.mp4', size: video.length, durationSec: 3 })
      expect(single.confirm.status).toBe(200)
      expect(parts.init.upload.type).toBe('multipart')
      expect(parts.confirm.status).toBe(200)
      keys = [keyOfUrl(single.init.upload.url), keyOfUrl(parts.init.upload.parts[0].url)]
    })
    for (const key of keys) {
      const path = join(server.mediaDir, key)
      expect(synced.some(line => line.includes(`<${path}>`)), `${key} synced:\n${synced.join('\n')}`).toBe(true)
      expect(synced.some(line => line.includes(`<${dirname(path)}>`)), `${dirname(key)} synced`).toBe(true)
    }
  }, 60_000)
})
