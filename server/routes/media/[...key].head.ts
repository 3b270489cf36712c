/** A local media URL's headers without its body, ranges included, like S3's HEAD (see serveLocalMedia). */
export default defineEventHandler(serveLocalMedia)
