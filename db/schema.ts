import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
// Relative imports only: drizzle-kit reads this file and knows no aliases.
import { GALLERY_MODES, LANGUAGES, MEDIA_KINDS, MODERATION_MODES, NOTIFY_FORMATS, NOTIFY_KINDS, NOTIFY_ON, UPLOAD_STATUSES, VIDEO_DISPLAYS } from '../shared/enums'
import { EVENT_DEFAULTS } from '../shared/limits'
import { PUBLIC_IMAGE_SOURCES } from '../shared/media/public-image'
import type { PublicImagesDeclaration } from '../shared/schemas/public-images'

/**
 * A confirmed upload the public could be shown once approved: a video whose display copy is not
 * being made (a guest's HEVC would not play on the projector meanwhile), or a photo whose
 * metadata-free display image exists (the original may carry the guest's GPS position). The
 * gallery's WHERE repeats this very text so that SQLite can serve it from the partial index below.
 */
export const DISPLAYABLE = sql.raw(`confirmed_at IS NOT NULL AND ((kind = 'video' AND display IS NOT 'pending') OR display_key IS NOT NULL)`)

/**
 * One row per guest upload. A row is created pending at init and stays invisible everywhere
 * (gallery, admin list, counts) until `confirmedAt` is set; unconfirmed rows older than a day are
 * swept with their bytes.
 */
export const uploads = sqliteTable('uploads', {
  id: text('id').primaryKey(),
  status: text('status', { enum: UPLOAD_STATUSES }).notNull().default('pending'),
  kind: text('kind', { enum: MEDIA_KINDS }).notNull(),
  author: text('author').notNull().default(''),
  message: text('message').notNull().default(''),
  /**
   * author + message folded for search (lower case, diacritics removed: shared/search.ts), kept by
   * the code that writes either field. SQLite's lower() and LIKE only fold ASCII, so 'JOÃO' could
   * not otherwise match 'joão'; folding in JS on write keeps the query a plain substring test.
   * The text index `uploads_fts` (migration 0006) follows this column through triggers.
   */
  searchText: text('search_text').notNull().default(''),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  width: integer('width'),
  height: integer('height'),
  durationSec: real('duration_sec'),
  /** The original bytes, exactly as the guest sent them (may carry EXIF: admins only). */
  storageKey: text('storage_key').notNull(),
  /** Set while a multipart upload is open in storage; cleared once completed or aborted. */
  multipartUploadId: text('multipart_upload_id'),
  partCount: integer('part_count'),
  /** Derived, metadata-free images; null until made (the photo stays out of public view meanwhile). */
  thumbKey: text('thumb_key'),
  displayKey: text('display_key'),
  posterKey: text('poster_key'),
  /** A video's picture codec as its container names it (shared/media/video-codec.ts); null when unread. */
  videoCodec: text('video_codec'),
  /** What a video's public address plays (VIDEO_DISPLAYS); null for photos and videos from before. */
  display: text('display', { enum: VIDEO_DISPLAYS }),
  /** A video's metadata-free H.264 display copy, when its original is not H.264 (display `copy`). */
  displayCopyKey: text('display_copy_key'),
  derivedAt: integer('derived_at', { mode: 'timestamp_ms' }),
  /** The 960 px thumbnail for 3× screens; null for photos derived before it existed. */
  thumb2xKey: text('thumb2x_key'),
  /**
   * The public images the guest's phone declared it would send (types and exact sizes, as signed:
   * shared/schemas/public-images.ts); confirm checks them against this and the original.
   */
  phoneImages: text('phone_images', { mode: 'json' }).$type<PublicImagesDeclaration>(),
  /** Who made the public images: the phone (verified at confirm), the server, or nobody could ('undecodable'). */
  publicImageSource: text('public_image_source', { enum: PUBLIC_IMAGE_SOURCES }),
  /** Why confirm refused the phone's images (a PhoneImagesRefusal), for the admin; null when accepted or none sent. */
  phoneImagesRefusal: text('phone_images_refusal'),
  /**
   * Who is finishing this upload right now: a confirm or an abort, decided by one conditional
   * UPDATE in the database (several instances share it), until `claimedUntil`. The loser answers
   * 409/404 instead of racing the winner for the bytes; a claim whose holder crashed lapses.
   */
  claim: text('claim', { enum: ['confirm', 'abort'] }),
  claimedUntil: integer('claimed_until', { mode: 'timestamp_ms' }),
  /**
   * SHA-256 (hex) of the bytes the guest's phone sent, as init declared it (confirm checks it where
   * storage can prove it cheaply: docs/api.md). A confirmed upload with the same hash makes a later
   * init answer "already sent" instead of storing the bytes twice (server/utils/uploads/duplicates.ts).
   */
  contentHash: text('content_hash'),
  /**
   * SHA-256 of the undo token init gave the sending device (never the token itself: a database
   * copy must not let anyone delete uploads). Null for uploads from before undo existed.
   */
  undoTokenHash: text('undo_token_hash'),
  /**
   * The revision of the sending device's last word edit that was applied (0: the words of init).
   * Requests overtake each other on a slow network, and a reloaded page cannot call back the ones
   * it had sent: an edit whose revision is not above this one is older than what is stored.
   */
  wordsRevision: integer('words_revision').notNull().default(0),
  /**
   * The guest device that sent it (the random id in its signed `em_guest` cookie), for the
   * disposable-camera limit and "my photos"; null for uploads without the cookie.
   */
  guestId: text('guest_id'),
  /**
   * The sending phone's own name for the file (its queue key, random): an init that comes again
   * with it (the answer was lost on the way, or another sender on the phone got there first) is
   * answered with this upload rather than a second one.
   */
  clientKey: text('client_key'),
  /**
   * Set once an admin has changed the author or the message: from then on the words are the
   * couple's, and the sending device's edit (`PATCH /api/uploads/:id`) is refused with
   * WORDS_LOCKED rather than silently undo theirs.
   */
  wordsLocked: integer('words_locked', { mode: 'boolean' }).notNull().default(false),
  /**
   * The chapter of the day it belongs to (`moments`), decided at init from the guest's choice or
   * from `takenAt`, and by the admin after; null for none. Not a foreign key: deleting a moment
   * clears it in the same transaction (server/utils/moments/).
   */
  momentId: text('moment_id'),
  /** When the phone says it was taken (EXIF or the video's creation time): the couple's, never public. */
  takenAt: integer('taken_at', { mode: 'timestamp_ms' }),
  /** The couple's prompt this answers (`challenges`), chosen at init; cleared with the challenge. */
  challengeId: text('challenge_id'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
}, table => [
  // Admin list by status, newest first, keyset over (created_at, id).
  index('uploads_status_created_idx').on(table.status, table.createdAt, table.id),
  // Gallery: approved and displayable, newest first, keyset over (created_at, id).
  index('uploads_gallery_idx').on(table.status, table.createdAt, table.id).where(DISPLAYABLE),
  // The gallery of one moment: the same keyset as uploads_gallery_idx behind an equality on the
  // moment, so `?moment=` pages cost what the unfiltered ones do (and its count is a range of it).
  index('uploads_moment_gallery_idx').on(table.momentId, table.status, table.createdAt, table.id).where(DISPLAYABLE),
  // A challenge's answers, the same way.
  index('uploads_challenge_gallery_idx').on(table.challengeId, table.status, table.createdAt, table.id).where(DISPLAYABLE),
  // Counts of confirmed uploads, and per hour.
  index('uploads_confirmed_created_idx').on(table.confirmedAt, table.createdAt, table.id),
  // Admin list without a status filter, newest first, keyset over (created_at, id). search_text
  // is in it so that a search too short for the text index, walking the list, tests each entry
  // here and reads only the rows it returns (the list's WHERE has `confirmed_at IS NOT NULL`,
  // which this index's WHERE needs).
  index('uploads_admin_newest_idx').on(table.createdAt, table.id, table.searchText).where(sql`confirmed_at IS NOT NULL`),
  // Sweeper: unconfirmed rows by age.
  index('uploads_unconfirmed_idx').on(table.createdAt).where(sql`confirmed_at IS NULL`),
  // Duplicates: the confirmed upload holding a hash (one event per database).
  index('uploads_content_hash_idx').on(table.contentHash).where(sql`confirmed_at IS NOT NULL AND content_hash IS NOT NULL`),
  // Init's replay: one upload per phone queue key.
  uniqueIndex('uploads_client_key_idx').on(table.clientKey).where(sql`client_key IS NOT NULL`),
  // A guest device's uploads, newest first ("my photos", and the per-guest limit's count).
  index('uploads_guest_idx').on(table.guestId, table.createdAt, table.id).where(sql`guest_id IS NOT NULL`),
  // Derived-image backlog.
  index('uploads_derive_idx').on(table.confirmedAt).where(sql`derived_at IS NULL AND confirmed_at IS NOT NULL`),
  // Guestbook: spoken messages only (a few among thousands of photos), newest first, by status
  // (the public list) and over every status (the admin's), so the list never walks the photos.
  index('uploads_audio_status_idx').on(table.status, table.createdAt, table.id).where(sql`kind = 'audio' AND confirmed_at IS NOT NULL`),
  index('uploads_audio_created_idx').on(table.createdAt, table.id).where(sql`kind = 'audio' AND confirmed_at IS NOT NULL`),
])

/**
 * A chapter of the day (the ceremony, the toast, the party), in the couple's order. An upload
 * taken inside a moment's window [startsAt, endsAt) belongs to it when sent (the first by position
 * when windows overlap); a missing bound leaves that side open, and a moment with neither has no
 * window (only the guest's or the admin's choice puts uploads in it).
 */
export const moments = sqliteTable('moments', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  startsAt: integer('starts_at', { mode: 'timestamp_ms' }),
  endsAt: integer('ends_at', { mode: 'timestamp_ms' }),
  position: integer('position').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
}, table => [
  index('moments_position_idx').on(table.position),
])

export type MomentRow = typeof moments.$inferSelect

/**
 * A prompt of the couple's that gets guests shooting ("uma selfie com a noiva"), in their order.
 * Switched off (`active` false), it is hidden from guests and refused at init, and its answers stay.
 */
export const challenges = sqliteTable('challenges', {
  id: text('id').primaryKey(),
  text: text('text').notNull(),
  position: integer('position').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
}, table => [
  index('challenges_position_idx').on(table.position),
])

export type ChallengeRow = typeof challenges.$inferSelect

/**
 * The key of each confirmed upload in the text index `uploads_fts` (an FTS5 table that drizzle
 * cannot declare: migration 0006 creates it, and the triggers that keep both in step with
 * `uploads`). An index entry needs an integer key that lasts: `uploads` has a text primary key,
 * and its hidden rowid may be renumbered by VACUUM or a dump and restore, this one may not.
 * Keys follow the admin list's order, newest first: (2^43 − created_at) × 1024 + a sequence
 * number within the millisecond, so the index hands out its matches in list order
 * (server/utils/admin/search.ts). Below 2^53: safe as a JavaScript number.
 */
export const uploadSearchKeys = sqliteTable('upload_search_keys', {
  key: integer('key').primaryKey(),
  uploadId: text('upload_id').notNull().unique(),
})

/** What a guest's moderated words carry, a guestbook message as a comment (fresh builders per table). */
function moderatedWordsColumns() {
  return {
    status: text('status', { enum: UPLOAD_STATUSES }).notNull().default('pending'),
    author: text('author').notNull().default(''),
    text: text('text').notNull(),
    /** author + text folded for the admin's search, as uploads.search_text (shared/search.ts). */
    searchText: text('search_text').notNull().default(''),
    /** SHA-256 of the undo token the sending device holds (never the token itself), as for uploads. */
    undoTokenHash: text('undo_token_hash'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  }
}

/**
 * A guest's written message for the couple (the guestbook). Spoken messages are uploads of kind
 * `audio` instead: they travel the upload protocol with their bytes. Ids come from the same
 * generator as uploads' (server/utils/storage/keys.ts), so an id names one message in either table.
 */
export const guestbookMessages = sqliteTable('guestbook_messages', {
  id: text('id').primaryKey(),
  ...moderatedWordsColumns(),
}, table => [
  // Public list (approved) and the admin's status filter, newest first, keyset over (created_at, id).
  index('guestbook_status_created_idx').on(table.status, table.createdAt, table.id),
  // The admin's list without a status filter.
  index('guestbook_created_idx').on(table.createdAt, table.id),
])

/** The single event configuration row (id = 1). */
export const eventSettings = sqliteTable('event_settings', {
  id: integer('id').primaryKey(),
  coupleNames: text('couple_names').notNull().default(EVENT_DEFAULTS.coupleNames),
  eventDate: text('event_date'),
  maxFileSizeBytes: integer('max_file_size_bytes').notNull().default(EVENT_DEFAULTS.maxFileSizeBytes),
  allowVideos: integer('allow_videos', { mode: 'boolean' }).notNull().default(EVENT_DEFAULTS.allowVideos),
  maxVideoDurationSec: integer('max_video_duration_sec').notNull().default(EVENT_DEFAULTS.maxVideoDurationSec),
  moderation: text('moderation', { enum: MODERATION_MODES }).notNull().default(EVENT_DEFAULTS.moderation),
  /** Spoken guestbook messages (uploads of kind `audio`) accepted, and their longest length. */
  allowAudio: integer('allow_audio', { mode: 'boolean' }).notNull().default(EVENT_DEFAULTS.allowAudio),
  maxAudioDurationSec: integer('max_audio_duration_sec').notNull().default(EVENT_DEFAULTS.maxAudioDurationSec),
  language: text('language', { enum: LANGUAGES }).notNull().default(EVENT_DEFAULTS.language),
  coverUploadId: text('cover_upload_id'),
  /** Who may browse the gallery (shared/enums.ts GALLERY_MODES); `revealAt` opens a `reveal` one. */
  galleryMode: text('gallery_mode', { enum: GALLERY_MODES }).notNull().default(EVENT_DEFAULTS.galleryMode),
  revealAt: integer('reveal_at', { mode: 'timestamp_ms' }),
  /** 4–8 digits or null; the admin reads it back, the public never (server/utils/gallery-access/). */
  galleryPin: text('gallery_pin'),
  guestDownloads: integer('guest_downloads', { mode: 'boolean' }).notNull().default(EVENT_DEFAULTS.guestDownloads),
  /** The disposable-camera limit per guest device (server/utils/guests/), or null for none. */
  maxUploadsPerGuest: integer('max_uploads_per_guest'),
  /**
   * The venue screen's key (128 random bits, base64url): it opens the gallery to the projector in
   * any mode and through a PIN. Null only until first read, which fills it (a migration cannot
   * give each existing row its own random value through drizzle's column default).
   */
  screenKey: text('screen_key'),
  /** Whether the screen key shows photos while the gallery is closed to guests. */
  screenInClosedMode: integer('screen_in_closed_mode', { mode: 'boolean' }).notNull().default(EVENT_DEFAULTS.screenInClosedMode),
  /** Whether the venue screen plays approved voice messages aloud (after a tap on it: browsers' rule). */
  screenSound: integer('screen_sound', { mode: 'boolean' }).notNull().default(EVENT_DEFAULTS.screenSound),
  /** Where the couple hears of new items (server/utils/notify/), or null: push subscriptions only. */
  notifyUrl: text('notify_url'),
  notifyFormat: text('notify_format', { enum: NOTIFY_FORMATS }).notNull().default(EVENT_DEFAULTS.notifyFormat),
  notifyOn: text('notify_on', { enum: NOTIFY_ON }).notNull().default(EVENT_DEFAULTS.notifyOn),
  /** The webhook's HMAC key (base64url); filled on first read, as the screen key. */
  notifySecret: text('notify_secret'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * New items not yet told to the couple, kept in the database so that a restart in the middle of a
 * batch (or of its retries) still tells them. A row leaves once its batch was delivered, or after
 * its last try.
 */
export const notifyQueue = sqliteTable('notify_queue', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: NOTIFY_KINDS }).notNull(),
  author: text('author').notNull().default(''),
  /** Given by the announcer (comments); uploads' thumbnails are looked up at send time, once derived. */
  thumbUrl: text('thumb_url'),
  pending: integer('pending', { mode: 'boolean' }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
})

/** The admin's devices that asked for Web Push (the browser's PushSubscription). */
export const pushSubscriptions = sqliteTable('push_subscriptions', {
  endpoint: text('endpoint').primaryKey(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * Notification state that is not the couple's configuration (so writing it bumps no `event`
 * version): the VAPID key pair, made once, and the last delivery's outcome. One row, id = 1.
 */
export const notifyState = sqliteTable('notify_state', {
  id: integer('id').primaryKey(),
  vapidPublicKey: text('vapid_public_key'),
  vapidPrivateKey: text('vapid_private_key'),
  lastStatus: text('last_status', { mode: 'json' }).$type<NotifyDelivery>(),
})

/** The last delivery to notifyUrl: the receiver's HTTP status, or the error when none came. */
export interface NotifyDelivery {
  at: string
  status: number | null
  error: string | null
  attempt: number
  items: number
}

/** Admin tokens revoked by logout, kept until they would have expired anyway. */
export const revokedTokens = sqliteTable('revoked_tokens', {
  jti: text('jti').primaryKey(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * Stored objects whose record is gone but whose bytes could not be removed yet (storage down).
 * The sweeper retries them, so no object is ever left behind silently.
 */
export const pendingDeletions = sqliteTable('pending_deletions', {
  key: text('key').primaryKey(),
  multipartUploadId: text('multipart_upload_id'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
})

export type UploadRow = typeof uploads.$inferSelect

/*
 * What the public may see of the event: an upload confirmed and approved (by the couple, or at
 * once under post-moderation). The gallery, the public counts, the export, the cover and the
 * duplicate answer at init ask this and only this. The data_versions triggers (migration 0003)
 * spell it again in SQL, where code cannot reach; tests/unit/public-uploads.test.ts proves the
 * two agree.
 */

/** In a query's WHERE. */
export const PUBLIC_UPLOAD = and(eq(uploads.status, 'approved'), isNotNull(uploads.confirmedAt))!

/** Of a row in hand. */
export function isPublicUpload(row: Pick<UploadRow, 'status' | 'confirmedAt'>): boolean {
  return row.status === 'approved' && row.confirmedAt !== null
}
export type EventSettingsRow = typeof eventSettings.$inferSelect
export type GuestbookMessageRow = typeof guestbookMessages.$inferSelect
export type NotifyQueueRow = typeof notifyQueue.$inferSelect
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

/**
 * Change counters, one row per kind of data an answer depends on, bumped by triggers (migration
 * 0003) on every write that could change an answer, whoever makes it (a route, the derivation,
 * the sweeper, another instance). Conditional answers take their ETag from here: one read of a
 * few rows per request, shared by every instance on the database. `public`: approved, confirmed
 * uploads (gallery, public stats, the cover); `uploads`: confirmed uploads (admin list and stats);
 * `event`: the settings row; `guestbook`: written messages, any status (migration 0009, guestbook);
 * `epoch`: random per database, so a new database never repeats a tag.
 */
export const dataVersions = sqliteTable('data_versions', {
  name: text('name').primaryKey(),
  version: integer('version').notNull().default(0),
})

/**
 * A guest device's heart on a public photo or video: one per device (the `em_guest` cookie's id),
 * so a repeated heart is the same row. Removed with its upload (migration trigger), whoever deletes it.
 */
export const hearts = sqliteTable('hearts', {
  uploadId: text('upload_id').notNull(),
  guestId: text('guest_id').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
}, table => [
  primaryKey({ columns: [table.uploadId, table.guestId] }),
  // "Which did this device heart": one device's hearts without walking everyone's.
  index('hearts_guest_idx').on(table.guestId),
])

/**
 * A guest's written comment under a photo or video, moderated as the guestbook's messages are.
 * Ids come from the uploads' generator. Removed with its upload (migration trigger).
 */
export const comments = sqliteTable('comments', {
  id: text('id').primaryKey(),
  uploadId: text('upload_id').notNull(),
  ...moderatedWordsColumns(),
}, table => [
  // An upload's approved comments oldest first, its count and its latest (gallery, viewer).
  index('comments_upload_status_created_idx').on(table.uploadId, table.status, table.createdAt, table.id),
  // The admin's list by status, newest first, and without a status filter.
  index('comments_status_created_idx').on(table.status, table.createdAt, table.id),
  index('comments_created_idx').on(table.createdAt, table.id),
])

export type CommentRow = typeof comments.$inferSelect
