/**
 * One live cursor list for every paged list (the gallery, the guestbook, "my uploads", the admin's
 * uploads and messages): the composable here, its pure merge rules in shared/cursor-merge.ts (the
 * service worker merges cached pages with them too).
 */
export { useCursorList } from './useCursorList'
export type { CursorListOptions } from './useCursorList'
