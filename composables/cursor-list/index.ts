/**
 * One live cursor list for the gallery and the admin's moderation list: the composable here, its
 * pure merge rules in merge.ts.
 */
export { useCursorList } from './useCursorList'
export type { CursorListOptions } from './useCursorList'
