/**
 * One live cursor list for the gallery and the admin's moderation list: the composable here, its
 * pure merge rules in shared/cursor-merge.ts (the service worker merges cached pages with them too).
 */
export { useCursorList } from './useCursorList'
export type { CursorListOptions } from './useCursorList'
