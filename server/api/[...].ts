/** Any /api path no route claims is a contract 404, never the HTML error page. */
export default defineEventHandler(() => {
  throw notFound()
})
