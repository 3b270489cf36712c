import { describe, expect, it } from 'vitest'
import { ErrorCode } from '#shared/errors'
import { ptBR } from '#shared/messages/pt-BR'
import { toRecord, type QueueItem } from '../../upload-client/item'
import { catchUp, isUnsent, markFailed, markSent } from '../../upload-client/senders'
import type { UploadRecord } from '../../upload-client/store'
import { ApiError } from '../../app-utils/api-error'
import { provideGuestMessages } from '../../app-utils/locale-messages'

provideGuestMessages(ptBR)

/** A queued photo as the queue stores it: sent by the guest, not yet on the server. */
function record(patch: Partial<UploadRecord> = {}): UploadRecord {
  return {
    key: 'k1', fileName: 'IMG_0001.JPG', contentType: 'image/jpeg', kind: 'photo', size: 3_000_000,
    durationSec: null, author: 'Ana', message: '', addedAt: 1, submitted: true, uploadId: null,
    uploadType: null, partsDone: [], done: false, status: null, error: null, errorFinal: false,
    hash: null, duplicate: false, undo: null,
    ...patch,
  }
}

const item = (patch: Partial<QueueItem> = {}): QueueItem =>
  ({ ...record(), file: new Blob(['x']), phase: 'queued', sentBytes: 0, thumbUrl: null, ...patch })

describe('isUnsent: the files the service worker picks up (and the page registers a sync for)', () => {
  it('takes a file the guest sent that has neither arrived nor been refused for good', () => {
    expect(isUnsent(record())).toBe(true)
    // A failure another try may fix (the server had a bad moment) is tried again.
    expect(isUnsent(record({ error: ptBR.refusal.failed, errorFinal: false, uploadId: 'u1', partsDone: [1] }))).toBe(true)
  })

  it('leaves a file still waiting for the send button, one already sent, and one refused for good', () => {
    expect(isUnsent(record({ submitted: false }))).toBe(false)
    expect(isUnsent(record({ done: true, status: 'approved' }))).toBe(false)
    expect(isUnsent(record({ done: true, duplicate: true }))).toBe(false)
    expect(isUnsent(record({ error: ptBR.refusal.unsupported, errorFinal: true }))).toBe(false)
  })
})

describe('catchUp: a sender given the lock takes over what another stored meanwhile', () => {
  it('shows a file the other sender finished as sent, with its status and undo window, and nothing left to send', () => {
    const mine = item({ phase: 'queued' })
    const undo = { token: 't', windowSec: 600, until: 1_000_000 }
    expect(catchUp(mine, record({ uploadId: 'u1', uploadType: 'single', hash: 'h', done: true, status: 'pending', undo }))).toBe(false)
    expect(mine).toMatchObject({ done: true, phase: 'done', status: 'pending', uploadId: 'u1', sentBytes: 3_000_000, file: null, undo })
    expect(mine.undo).not.toBe(undo)
  })

  it('shows a file the other sender found already on the server as a duplicate', () => {
    const mine = item()
    expect(catchUp(mine, record({ uploadId: 'earlier', done: true, duplicate: true }))).toBe(false)
    expect(mine).toMatchObject({ done: true, phase: 'duplicate', duplicate: true, uploadId: 'earlier', undo: null })
  })

  it('resumes the upload the other sender started, from its acknowledged parts, instead of starting a second one', () => {
    const mine = item({ size: 30_000_000 })
    expect(catchUp(mine, record({ size: 30_000_000, uploadId: 'u2', uploadType: 'multipart', partsDone: [1, 2], hash: 'h' }))).toBe(true)
    expect(mine).toMatchObject({ uploadId: 'u2', uploadType: 'multipart', partsDone: [1, 2], hash: 'h', done: false, phase: 'queued' })
  })

  it('keeps who makes a video\'s display copy with the stored upload, so a page opened again still sends the phone\'s copy', () => {
    const video = item({ kind: 'video', contentType: 'video/mp4', uploadId: 'u3', uploadType: 'single', displayCopy: 'phone' })
    expect(toRecord(video).displayCopy).toBe('phone')
    // The page opened again: its item is the stored record, and the copy step reads it there.
    const reopened = item({ ...toRecord(video) })
    expect(reopened.displayCopy).toBe('phone')
    // Another sender started the upload: its answer is the one that holds.
    const waiting = item({ kind: 'video', contentType: 'video/mp4' })
    catchUp(waiting, toRecord(video))
    expect(waiting).toMatchObject({ uploadId: 'u3', displayCopy: 'phone' })
    // A record from before the field, for the same upload, leaves what this page knows.
    catchUp(video, { ...toRecord(video), displayCopy: undefined })
    expect(video.displayCopy).toBe('phone')
    // Records of other files say none.
    expect(toRecord(item()).displayCopy).toBeNull()
  })

  it('takes over a refusal for good, but tries again after one another try may fix', () => {
    const refused = item()
    expect(catchUp(refused, record({ error: ptBR.refusal.unsupported, errorFinal: true }))).toBe(false)
    expect(refused).toMatchObject({ phase: 'error', error: ptBR.refusal.unsupported, errorFinal: true })
    const flaky = item()
    expect(catchUp(flaky, record({ error: ptBR.refusal.failed, errorFinal: false, uploadId: 'u3', uploadType: 'single' }))).toBe(true)
    expect(flaky).toMatchObject({ phase: 'queued', error: null, uploadId: 'u3' })
  })
})

describe('markSent and markFailed: how every sender writes a file down', () => {
  it('a sent file is done, full, and lets its bytes go', () => {
    const sent = item({ sentBytes: 10, uploadId: 'u1', status: 'approved' })
    markSent(sent)
    expect(sent).toMatchObject({ done: true, phase: 'done', sentBytes: 3_000_000, file: null })
  })

  it('a content mismatch is final and forgets the upload the server removed; a lost connection is not final', () => {
    const mismatch = item({ uploadId: 'u1', uploadType: 'single', partsDone: [1] })
    markFailed(mismatch, new ApiError(422, ErrorCode.CONTENT_MISMATCH), ptBR)
    expect(mismatch).toMatchObject({ phase: 'error', error: ptBR.refusal.contentMismatch, errorFinal: true, uploadId: null, uploadType: null, partsDone: [] })
    // A video refused for its timed GPS track is told so, not that it is something else.
    const tracked = item({ uploadId: 'u3', uploadType: 'single' })
    markFailed(tracked, new ApiError(422, ErrorCode.CONTENT_MISMATCH, { videoProblem: 'location-track' }), ptBR)
    expect(tracked).toMatchObject({ phase: 'error', error: ptBR.refusal.locationTrack, errorFinal: true, uploadId: null })
    const lost = item({ uploadId: 'u2' })
    markFailed(lost, new ApiError(null, null), ptBR)
    expect(lost).toMatchObject({ phase: 'error', error: ptBR.refusal.failed, errorFinal: false, uploadId: 'u2' })
  })
})
