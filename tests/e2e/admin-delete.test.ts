import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, seedPhoto, seedVideo, waitForDerived } from '../support/seed'
import { keyOfUrl } from '../support/uploads'

// Deleting must remove the bytes from the real storage, with both drivers.
describe.each(['local', 's3'] as const)('admin delete (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, db: true })

  /** A photo with its derived images made, and every storage key it owns. */
  async function derivedPhoto(author: string) {
    const photo = await seedPhoto(server.url, { author })
    const record = await waitForDerived(server.url, server.cookie, photo.id)
    const keys = [...new Set([record.url, record.thumbUrl, record.originalUrl].map(keyOfUrl))]
    expect(keys).toHaveLength(3)
    expect(keys).toContain(photo.key)
    for (const key of keys) expect(await server.probe.exists(key), key).toBe(true)
    return { ...photo, keys }
  }

  const pendingDeletions = async () => Number((await server.db.execute('SELECT count(*) AS n FROM pending_deletions')).rows[0]!.n)

  it('DELETE removes the record, the original and the derived images', async () => {
    const photo = await derivedPhoto('Apagar')
    const response = await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'DELETE', cookie: server.cookie })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: photo.id, deleted: true })
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(false)
    expect(await pendingDeletions()).toBe(0)
    expect((await adminRecord(server.url, server.cookie, photo.id)).status).toBe(404)
    expect((await api(server.url, '/api/gallery')).body.items.map((i: any) => i.id)).not.toContain(photo.id)
    const again = await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'DELETE', cookie: server.cookie })
    expect([again.status, again.body.data.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('DELETE also removes derived images that were written but not yet recorded', async () => {
    // The moment a derivation has stored its images but not yet recorded them: a delete then must
    // still remove (or queue) them, or a crash before the derivation cleans up leaves orphans.
    const photo = await derivedPhoto('Quase derivada')
    await server.db.execute({ sql: 'UPDATE uploads SET display_key = NULL, thumb_key = NULL, derived_at = NULL WHERE id = ?', args: [photo.id] })
    expect((await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(false)
    expect(await pendingDeletions()).toBe(0)
  })

  it('DELETE removes a video', async () => {
    const video = await seedVideo(server.url)
    expect(await server.probe.exists(video.key)).toBe(true)
    expect((await api(server.url, `/api/admin/uploads/${video.id}`, { method: 'DELETE', cookie: server.cookie })).body).toEqual({ id: video.id, deleted: true })
    expect(await server.probe.exists(video.key)).toBe(false)
  })

  it('bulk delete removes the found uploads and their bytes, and reports unknown ids', async () => {
    const a = await derivedPhoto('Bulk A')
    const b = await seedVideo(server.url)
    const keep = await seedPhoto(server.url, { author: 'Fica' })
    const response = await api(server.url, '/api/admin/uploads/bulk', { method: 'POST', json: { ids: [a.id, 'gone-already', b.id], action: 'delete' }, cookie: server.cookie })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ action: 'delete', processed: [a.id, b.id], notFound: ['gone-already'] })
    for (const key of [...a.keys, b.key]) expect(await server.probe.exists(key), key).toBe(false)
    expect(await server.probe.exists(keep.key)).toBe(true)
    expect((await adminRecord(server.url, server.cookie, keep.id)).status).toBe(200)
    expect(await pendingDeletions()).toBe(0)
  })

  it('a bulk delete the database refuses half-way deletes nothing, bytes included', async () => {
    const a = await seedPhoto(server.url, { author: 'Fica A' })
    const b = await seedPhoto(server.url, { author: 'Fica B' })
    await server.db.execute(`CREATE TRIGGER refuse_delete BEFORE DELETE ON uploads WHEN OLD.id = '${b.id}' BEGIN SELECT RAISE(ABORT, 'refused'); END;`)
    try {
      const response = await api(server.url, '/api/admin/uploads/bulk', { method: 'POST', json: { ids: [a.id, b.id], action: 'delete' }, cookie: server.cookie })
      expect(response.status).toBe(500)
    }
    finally {
      await server.db.execute('DROP TRIGGER refuse_delete')
    }
    for (const seeded of [a, b]) {
      expect((await adminRecord(server.url, server.cookie, seeded.id)).status).toBe(200)
      expect(await server.probe.exists(seeded.key)).toBe(true)
    }
    // Nothing was queued for deletion either: the queue is part of the same transaction.
    expect(await pendingDeletions()).toBe(0)
  })
})
