// The container check's requests (scripts/container-check.sh), run against the container from outside:
//   tsx scripts/container-round-trip.ts write <url> <state.json>   a guest's photo, listed; a setting changed
//   tsx scripts/container-round-trip.ts verify <url> <state.json>  after a restart: both still there
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { galleryItems } from '../tests/support/guests'
import { api, fetchFresh, login } from '../tests/support/http'
import { adminRecord, seedPhoto, waitForDerived } from '../tests/support/seed'

interface State { id: string, sha256: string, moderation: 'pre' | 'post' }

const [mode, base, statePath] = process.argv.slice(2)
if (!(mode === 'write' || mode === 'verify') || !base || !statePath) {
  console.error('usage: container-round-trip.ts write|verify <url> <state.json>')
  process.exit(2)
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

async function healthy() {
  const health = await api(base!, '/api/health')
  assert.equal(health.status, 200, JSON.stringify(health.body))
  assert.equal(health.body.database, 'ok')
  assert.equal(health.body.storage, 'ok')
  assert.equal(health.body.storageDriver, 'local')
}

/** The photo is in the public gallery and the admin's original is byte for byte what was sent. */
async function listed(cookie: string, id: string, expectedSha: string) {
  const item = (await galleryItems(base!)).find(entry => entry.id === id)
  assert.ok(item, `upload ${id} is not in GET /api/gallery`)
  const display = await fetchFresh(new URL(item.url, base).href)
  assert.equal(display.status, 200, `the display image answered ${display.status}`)
  assert.match(display.headers.get('content-type') ?? '', /^image\//)
  const record = await adminRecord(base!, cookie, id)
  assert.equal(record.status, 200)
  const original = await fetchFresh(new URL(record.body.originalUrl ?? record.body.url, base).href, { headers: { cookie } })
  assert.equal(original.status, 200, `the original answered ${original.status}`)
  assert.equal(sha256(Buffer.from(await original.arrayBuffer())), expectedSha, 'the original\'s bytes changed')
}

await healthy()
const cookie = await login(base)
if (mode === 'write') {
  const event = await api(base, '/api/admin/event', { cookie })
  assert.equal(event.status, 200)
  const photo = await seedPhoto(base, { author: 'Convidada do contêiner', message: 'Sobreviveu ao reinício' })
  // Under pre-moderation (an event's choice) the photo waits for the admin, as a guest's would.
  if (photo.status === 'pending') {
    const approved = await api(base, `/api/admin/uploads/${photo.id}/approve`, { method: 'POST', cookie })
    assert.equal(approved.status, 200, JSON.stringify(approved.body))
  }
  else {
    assert.equal(photo.status, 'approved')
  }
  await waitForDerived(base, cookie, photo.id)
  await listed(cookie, photo.id, sha256(photo.bytes))
  // A setting, flipped from what it was, to find after the restart.
  const moderation = event.body.moderation === 'pre' ? 'post' : 'pre'
  const patched = await api(base, '/api/admin/event', { method: 'PATCH', json: { moderation }, cookie })
  assert.equal(patched.status, 200, JSON.stringify(patched.body))
  const state: State = { id: photo.id, sha256: sha256(photo.bytes), moderation }
  writeFileSync(statePath, JSON.stringify(state))
  console.log(`round trip: upload ${photo.id} sent, confirmed and listed; moderation set to ${moderation}`)
}
else {
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as State
  await listed(cookie, state.id, state.sha256)
  const event = await api(base, '/api/admin/event', { cookie })
  assert.equal(event.status, 200)
  assert.equal(event.body.moderation, state.moderation, 'the event\'s setting was lost')
  console.log(`after the restart: upload ${state.id} listed with its original bytes; moderation still ${state.moderation}`)
}
