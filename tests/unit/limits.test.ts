import { describe, expect, it } from 'vitest'
import { GALLERY_MODES, MEDIA_KINDS, MODERATION_MODES, UPLOAD_STATUSES } from '../../shared/enums'
import {
  AUTHOR_MAX_LENGTH, COUPLE_NAMES_MAX_LENGTH, EVENT_DEFAULTS, FILE_NAME_MAX_LENGTH, GALLERY_PIN_PATTERN, kindOfContentType,
  MAX_FILE_SIZE_LIMIT, MAX_UPLOADS_PER_GUEST_LIMIT, MAX_VIDEO_DURATION_LIMIT, MESSAGE_MAX_LENGTH, PART_SIZE_BYTES, partLayout, partSize, SINGLE_PUT_MAX_BYTES,
} from '../../shared/limits'

describe('part layout', () => {
  it('cuts a file into 10 MiB parts with the rest last', () => {
    expect(partLayout(SINGLE_PUT_MAX_BYTES + 1)).toEqual({ partCount: 6, lastPartSize: 1 })
    expect(partLayout(60 * 1024 * 1024)).toEqual({ partCount: 6, lastPartSize: PART_SIZE_BYTES })
    expect(partSize(55 * 1024 * 1024, 6)).toBe(5 * 1024 * 1024)
    expect(partSize(55 * 1024 * 1024, 1)).toBe(PART_SIZE_BYTES)
  })

  it('derives the kind from the content type', () => {
    expect(kindOfContentType('video/quicktime')).toBe('video')
    expect(kindOfContentType('image/heic')).toBe('photo')
  })
})

describe('named limits and sets', () => {
  // The one place the tests spell the contract's numbers; other tests build their inputs from the names.
  it('are the values api-contract.md gives', () => {
    expect({ AUTHOR_MAX_LENGTH, MESSAGE_MAX_LENGTH, FILE_NAME_MAX_LENGTH, COUPLE_NAMES_MAX_LENGTH, MAX_FILE_SIZE_LIMIT, MAX_VIDEO_DURATION_LIMIT }).toEqual({
      AUTHOR_MAX_LENGTH: 80, MESSAGE_MAX_LENGTH: 1000, FILE_NAME_MAX_LENGTH: 255, COUPLE_NAMES_MAX_LENGTH: 120,
      MAX_FILE_SIZE_LIMIT: 10 * 1024 * 1024 * 1024, MAX_VIDEO_DURATION_LIMIT: 7200,
    })
    expect(EVENT_DEFAULTS).toEqual({
      coupleNames: '', maxFileSizeBytes: 524288000, allowVideos: true, maxVideoDurationSec: 300, moderation: 'post', allowAudio: true, maxAudioDurationSec: 120, language: 'pt-BR',
      // The gallery controls: today's behaviour until the couple changes them.
      galleryMode: 'live', guestDownloads: false, screenInClosedMode: true,
      // The venue screen stays silent until the couple turns its sound on.
      screenSound: false,
      // The couple hears, once they give a receiver, of what waits for them, signed JSON unless they pick ntfy.
      notifyFormat: 'json', notifyOn: 'pending',
    })
    expect(GALLERY_MODES).toEqual(['live', 'upload-only', 'reveal'])
    expect(MAX_UPLOADS_PER_GUEST_LIMIT).toBe(1000)
    expect(['1234', '00000000'].every(pin => GALLERY_PIN_PATTERN.test(pin))).toBe(true)
    expect(['123', '123456789', '12a4', ' 1234'].some(pin => GALLERY_PIN_PATTERN.test(pin))).toBe(false)
    expect(UPLOAD_STATUSES).toEqual(['pending', 'approved', 'rejected'])
    expect(MEDIA_KINDS).toEqual(['photo', 'video', 'audio'])
    expect(MODERATION_MODES).toEqual(['pre', 'post'])
  })
})
