/** The venue screen: its engine is the composable; the rotation is a plain module beside it. */
export { useSlideshow } from './useSlideshow'
export type { SlideLayer, SlideshowInterlude } from './useSlideshow'
