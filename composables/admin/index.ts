/**
 * The admin's composables, exported here (and so auto-imported): its API and session, the
 * moderation machinery every kind of list shares (filters, selection, confirmation, shortcuts,
 * the actions of an upload's two views), the uploads', the guestbook's and the comments' lists, the event form,
 * the stats, toasts and texts.
 */
export { useAdminApi, useConditionalAdminGet } from './useAdminApi'
export type { AdminFetchOptions } from './useAdminApi'
export { useAdminComments } from './useAdminComments'
export { useAdminConfirmation } from './useAdminConfirmation'
export type { AdminDeleteWords, AdminQuestion, AdminQuestionDialog } from './useAdminConfirmation'
export { useAdminEvent } from './useAdminEvent'
export { useAdminFilters } from './useAdminFilters'
export { useAdminGuestbook } from './useAdminGuestbook'
export { useAdminKeepPlace } from './useAdminKeepPlace'
export { useAdminMessages } from './useAdminMessages'
export { useAdminOrderedList } from './useAdminOrderedList'
export { useAdminSelection } from './useAdminSelection'
export { rememberedAdminEmail, useAdminSession, useAdminSessionState } from './useAdminSession'
export { useAdminShortcuts } from './useAdminShortcuts'
export type { AdminShortcutHandlers } from './useAdminShortcuts'
export { useAdminStats } from './useAdminStats'
export { useAdminToasts } from './useAdminToasts'
export type { AdminToast } from './useAdminToasts'
export { useAdminUploadActions } from './useAdminUploadActions'
export type { AdminUploadActionEvents, AdminUploadViewProps } from './useAdminUploadActions'
export { ADMIN_PAGE_SIZE, useAdminUploads } from './useAdminUploads'
export { useAdminViewMode } from './useAdminViewMode'
export type { AdminViewMode } from './useAdminViewMode'
export { useAdminVisibleUploads } from './useAdminVisibleUploads'
export { useDevicePush } from './useDevicePush'
export { useNotifyActions } from './useNotifyActions'
export { usePendingTitle } from './usePendingTitle'
