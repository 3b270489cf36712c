/**
 * What the page needs once a file is picked, and not before: checking it, its thumbnail, and
 * the transfer with everything it makes on the way (hashing, the gallery's images, a video's
 * poster, its location blanked). The queue imports this module on demand (its own chunk), so
 * /enviar answers a tap before these bytes arrive; see bench/RESULTS.md, "Guest first load".
 */
export { checkMediaFile } from './media-checks'
export { pageTransfer } from './page-transfer'
export { makeThumbnail } from './thumbnail'
export { transferUpload } from './transfer'
