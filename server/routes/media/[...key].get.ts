/** Local storage downloads (see serveLocalMedia). */
export default defineEventHandler(serveLocalMedia)
