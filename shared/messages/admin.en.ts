/**
 * Every text of the admin pages, in English: the same shape as `admin.pt-BR.ts` (`AdminMessages`).
 */
import type { Language, UploadStatus } from '#shared/enums'
import type { ErrorCode } from '#shared/errors'
import type { AdminMessages } from '#shared/messages/admin.pt-BR'
import {
  formatAgo, formatBytes, formatClock, formatCount, formatDateTime, formatDuration, formatHour, plural,
} from '#shared/messages/format.en'

/** Why an admin call failed, in words. */
const failures = {
  network: 'No connection to the server. Check the internet and try again.',
  generic: 'Something went wrong. Please try again.',
  byCode: {
    INVALID_REQUEST: 'Some of the data sent is not valid.',
    UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
    INVALID_CREDENTIALS: 'Wrong email or password.',
    FORBIDDEN_ORIGIN: 'Request refused for security reasons. Reload the page.',
    NOT_FOUND: 'This upload no longer exists.',
    NOT_ELIGIBLE: 'Only an approved photo can be the cover.',
    RATE_LIMITED: 'Too many requests in a row. Wait a moment.',
    STORAGE_UNAVAILABLE: 'File storage is down. Try again in a moment.',
    DATABASE_UNAVAILABLE: 'The database is busy. Try again in a moment.',
  } as Partial<Record<ErrorCode, string>>,
}

export const adminEn = {
  locale: 'en',
  format: {
    bytes: formatBytes, count: formatCount, clock: formatClock, dateTime: formatDateTime, hour: formatHour, ago: formatAgo,
    wait: formatDuration,
  },
  appName: 'Couple’s dashboard',

  login: {
    title: 'Sign in to the dashboard',
    intro: 'Only for the people organizing the event.',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    missingFields: 'Enter your email and password.',
    invalidCredentials: 'Wrong email or password.',
    rateLimited: (wait: string) => `Too many failed attempts. Try again in ${wait}.`,
    sessionEnded: 'Your session has ended. Sign in again to continue.',
  },

  nav: {
    label: 'Dashboard sections',
    moderation: 'Moderation',
    stats: 'Statistics',
    event: 'Event',
    logout: 'Sign out',
    loggingOut: 'Signing out…',
    signedInAs: (email: string) => `Signed in as ${email}`,
  },

  filters: {
    label: 'Filters',
    status: 'Status',
    kind: 'Type',
    search: 'Search by name or message',
    searchPlaceholder: 'Search…',
    statuses: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', all: 'All' },
    kinds: { all: 'Photos and videos', photo: 'Photos only', video: 'Videos only' },
  },

  list: {
    loading: 'Loading…',
    loadMore: 'Load more',
    showing: (shown: number, total: number, atLeast = false) => `${shown} of ${total}${atLeast ? '+' : ''}`,
    emptyPending: 'Nothing waiting for approval. New uploads show up here on their own.',
    empty: 'No uploads match these filters.',
    loadFailed: 'Could not load the uploads.',
    retry: 'Try again',
    shortcuts: 'Shortcuts: j/k or arrows move, a approves, r rejects; shift+click selects a range.',
    title: 'Upload moderation',
    view: 'View',
    viewCards: 'Cards',
    viewDense: 'Compact grid',
    approveOnScreen: (count: number) => `Approve the ${count} on screen`,
  },

  status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' } as Record<UploadStatus, string>,

  upload: {
    anonymous: 'No name',
    noMessage: 'No message',
    photo: 'Photo',
    video: 'Video',
    select: 'Select',
    preview: (author: string) => `View large: upload by ${author}`,
    selectNamed: (author: string) => `Select the upload by ${author}`,
    approve: 'Approve',
    reject: 'Reject',
    delete: 'Delete',
    setCover: 'Cover',
    setCoverLong: 'Use as the event cover',
    isCover: 'Current cover',
    coverNotEligible: 'Only an approved photo can be the cover.',
    edit: 'Edit',
    save: 'Save',
    cancel: 'Cancel',
    author: 'Name',
    message: 'Message',
    sentAt: (when: string) => `Sent ${when}`,
    noPoster: 'Video without a preview',
    openOriginal: 'Open the original',
    closePreview: 'Close',
  },

  publicImage: {
    missing: { waiting: 'No public image yet', undecodable: 'No public image' },
    why: {
      waiting: 'The server is still preparing the image the public sees.',
      undecodable: 'The server cannot read this format (HEIC?) and the phone did not send the images: the public does not see it.',
    },
  },

  bulk: {
    selected: (count: number) => `${count} selected`,
    selectAll: 'Select all',
    clear: 'Clear selection',
    range: 'Select a range',
    rangeHint: 'Tap the last upload of the range.',
    approve: 'Approve',
    reject: 'Reject',
    delete: 'Delete',
  },

  confirm: {
    deleteOneTitle: 'Delete this upload?',
    deleteManyTitle: (count: number) => `Delete ${count} ${plural(count, 'upload', 'uploads')}?`,
    deleteBody: 'The file is erased for good and leaves the gallery. This cannot be undone.',
    confirmDelete: 'Delete',
    approveManyTitle: (count: number) => `Approve ${count} ${plural(count, 'upload', 'uploads')}?`,
    approveManyBody: 'They appear in the gallery and on the screen right away.',
    confirmApprove: 'Approve',
    cancel: 'Cancel',
  },

  feedback: {
    approved: 'Approved.',
    rejected: 'Rejected.',
    deleted: 'Deleted.',
    coverSet: 'Cover updated.',
    coverCleared: 'Cover removed.',
    edited: 'Changes saved.',
    bulkDone: (count: number) => `${count} ${plural(count, 'upload updated', 'uploads updated')}.`,
    bulkNotFound: (count: number) => `${count} ${plural(count, 'upload no longer existed', 'uploads no longer existed')}.`,
    undone: (what: string) => `${what} Nothing was changed.`,
    dismiss: 'Dismiss',
  },

  stats: {
    title: 'Statistics',
    total: 'Uploads',
    pending: 'Pending',
    approved: 'Approved',
    rejected: 'Rejected',
    photos: 'Photos',
    videos: 'Videos',
    totalBytes: 'Space used',
    lastUpload: 'Last upload',
    never: 'none yet',
    perHourTitle: 'Uploads per hour',
    perHourEmpty: 'The chart appears with the first uploads.',
    perHourBar: (hour: string, count: number) => `${hour}: ${count} ${plural(count, 'upload', 'uploads')}`,
    loadFailed: 'Could not load the statistics.',
  },

  event: {
    title: 'Event settings',
    coupleNames: 'Couple’s names',
    coupleNamesHint: 'Shown at the top of the home page.',
    eventDate: 'Event date',
    eventDateHint: 'Leave it blank if there is no date yet.',
    maxFileSize: 'Largest file allowed (MB)',
    maxFileSizeHint: 'Larger files are refused before they are sent. Up to 10,240 MB (10 GB).',
    allowVideos: 'Accept videos',
    maxVideoDuration: 'Longest video allowed (seconds)',
    maxVideoDurationHint: (seconds: number) => `Now: ${formatClock(seconds)} (up to 7,200 seconds, 2 hours).`,
    moderation: 'Moderation',
    moderationPost: 'Post-moderation: appears in the gallery right away; you can reject it later.',
    moderationPre: 'Pre-moderation: appears in the gallery only after you approve it.',
    language: 'Event language',
    languageHint: 'The screen, the printed card and the pages of guests whose browser asks for another language speak this one.',
    save: 'Save settings',
    saving: 'Saving…',
    saved: 'Settings saved.',
    unchanged: 'Nothing was changed.',
    fixErrors: 'Fix the highlighted fields.',
    loadFailed: 'Could not load the settings.',
    errors: {
      coupleNames: 'Enter the couple’s names (up to 120 characters).',
      eventDate: 'Enter a valid date or leave it blank.',
      maxFileSizeBytes: 'Enter a size above zero and at most 10,240 MB.',
      allowVideos: 'Invalid value.',
      maxVideoDurationSec: 'Enter a whole number of seconds between 1 and 7,200.',
      moderation: 'Choose a moderation mode.',
      language: 'Choose one of the languages.',
      other: 'Invalid value.',
    } as Record<string, string>,
  },

  cover: {
    title: 'Cover',
    none: 'No cover yet. Pick an approved photo in moderation with “Use as the event cover”.',
    alt: 'Event cover photo',
    clear: 'Remove cover',
  },

  share: {
    title: 'QR code and export',
    intro: 'The QR code takes guests straight to the upload page.',
    png: 'QR code (PNG)',
    svg: 'QR code (SVG)',
    pdf: 'Printable card (PDF)',
    pdfIn: {
      'pt-BR': 'Card in Portuguese (PDF)',
      'en': 'Card in English (PDF)',
      'es': 'Card in Spanish (PDF)',
    } as Record<Language, string>,
    pdfInHint: 'Each card’s QR code opens the pages in that card’s language.',
    exportZip: 'Download all approved photos (ZIP)',
    exportHint: 'The approved originals, with a list of authors and messages.',
    previewTitle: 'Preview',
    qrAlt: 'QR code that leads to the upload page',
    cardPreview: 'Preview of the printable card',
    /** As the PDF card prints it in English (server/utils/qr/card.ts). */
    cardInstruction: 'Point your camera',
  },

  slideshow: {
    title: 'Screen (projector, TV or tablet)',
    intro: 'The screen shows the approved photos one by one, with the QR code for guests to send theirs. Open this address on the venue’s device; it is not meant for the guests.',
    photoSeconds: 'Seconds per photo',
    photoSecondsHint: (standard: number) => `From 2 to 60. Default: ${standard}.`,
    inviteEvery: '“Share your photos” card every',
    inviteEveryHint: (standard: number) => `Number of photos between two cards; 0 for never. Default: ${standard}.`,
    address: 'Screen address',
    open: 'Open the screen',
    installTitle: 'How to keep the screen on all night',
    install: [
      { device: 'Computer on a projector:', how: 'open the address in Chrome or Chromium and press F for full screen; or install it as an app (the install icon in the address bar), or start it with chromium --kiosk followed by the address. Turn off the computer’s sleep mode.' },
      { device: 'Smart TV:', how: 'open the TV’s browser, type the address and switch to full screen. Turn off the TV’s automatic shutdown.' },
      { device: 'Tablet:', how: 'open the address in Chrome (Android: ⋮ menu › Install app) or in Safari (iPad: Share › Add to Home Screen) and open the screen from the new icon: it fills the whole screen. Keep the tablet plugged in.' },
    ],
  },

  errors: {
    ...failures,
    describe(failure: { status: number | null, code: string | null }): string {
      if (failure.status === null) return failures.network
      return (failure.code ? failures.byCode[failure.code as ErrorCode] : undefined) ?? failures.generic
    },
    actionFailed: (action: string, reason: string) => `Could not ${action}: ${reason}`,
    actions: {
      approve: 'approve',
      reject: 'reject',
      delete: 'delete',
      setCover: 'set the cover',
      clearCover: 'remove the cover',
      edit: 'save the edit',
      bulk: 'apply the bulk action',
      saveEvent: 'save the settings',
      logout: 'sign out',
    },
  },
} satisfies AdminMessages
