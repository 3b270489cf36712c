/**
 * Hearts and comments on the gallery's pictures: this device's hearts over the shared gallery
 * answer's counts, and one picture's comments with the guest's one-line form.
 */
export { useHearts } from './useHearts'
export { useComments } from './useComments'
