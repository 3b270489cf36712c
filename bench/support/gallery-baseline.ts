// The yardstick of bench/gallery.ts: a bare node:http server that answers the gallery page and the
// admin list with the same SQL the service runs (as drizzle emits it), through the same
// @libsql/client on the same database file, and writes the same JSON fields, signing the same URLs
// with an HMAC as the local media driver does. What it leaves out is exactly what the ratio
// measures: h3/Nitro routing and middleware, query validation, drizzle, the admin session check.
// Started as a child process by bench/gallery.ts: `tsx bench/support/gallery-baseline.ts <db> <port>`.
import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import { createClient, type Row } from '@libsql/client'
import { decodeUploadCursor, encodeUploadCursor } from '../../shared/cursor'
import { containsPattern, LIKE_ESCAPE, SEARCH_TOTAL_LIMIT, SHORT_SEARCH_WINDOW, trigramPhrase } from '../../shared/search'

const [dbPath, portText] = process.argv.slice(2)
if (!dbPath || !portText) throw new Error('usage: gallery-baseline.ts <db file> <port>')
const port = Number(portText)
const origin = `http://127.0.0.1:${port}`
const client = createClient({ url: `file:${dbPath}`, timeout: 5000 })
const signingKey = createHmac('sha256', 'baseline-secret').update('local-media-urls').digest()

// The admin list reads only what an item is made of, as the service does.
const LIST_COLUMNS = `"id", "status", "kind", "author", "message", "file_name", "content_type", "size",
  "width", "height", "duration_sec", "storage_key", "thumb_key", "display_key",
  "poster_key", "created_at", "confirmed_at", "updated_at"`
// The gallery reads only what an item shows, as the service's prepared statement does.
const GALLERY_COLUMNS = `"id", "kind", "author", "message", "width", "height", "duration_sec", "created_at", "storage_key",
  "display_key", "thumb_key", "poster_key"`
const NEWEST_FIRST = `order by "uploads"."created_at" desc, "uploads"."id" desc`

const publicUrl = (key: string) => `${origin}/media/${key}`
function signedUrl(key: string): string {
  const expires = Math.floor(Date.now() / 1000) + 3600
  const sig = createHmac('sha256', signingKey).update(['GET', key, expires, '', '', '', ''].join('\n')).digest('base64url')
  return `${origin}/media/${key}?${new URLSearchParams({ exp: String(expires), sig })}`
}

function media(row: Row): { url: string, thumbUrl: string | null } {
  if (row.kind === 'video') return { url: publicUrl(String(row.storage_key)), thumbUrl: row.poster_key ? publicUrl(String(row.poster_key)) : null }
  if (row.display_key) {
    const url = publicUrl(String(row.display_key))
    return { url, thumbUrl: row.thumb_key ? publicUrl(String(row.thumb_key)) : url }
  }
  const signed = signedUrl(String(row.storage_key))
  return { url: signed, thumbUrl: signed }
}

const iso = (value: unknown) => (value === null ? null : new Date(Number(value)).toISOString())

function nextCursor(rows: Row[], limit: number): string | null {
  if (rows.length <= limit) return null
  const last = rows[limit - 1]!
  return encodeUploadCursor({ createdAt: new Date(Number(last.created_at)), id: String(last.id) })
}

async function gallery(params: URLSearchParams) {
  const limit = Number(params.get('limit') ?? 24)
  const cursor = params.has('cursor') ? decodeUploadCursor(params.get('cursor')!) : undefined
  if (cursor === null) return { status: 400, body: { statusCode: 400 } }
  const args: (string | number)[] = ['approved']
  let where = `"uploads"."status" = ? and confirmed_at IS NOT NULL AND (kind = 'video' OR display_key IS NOT NULL)`
  if (params.has('moment')) {
    where += ` and "uploads"."moment_id" = ?`
    args.push(params.get('moment')!)
  }
  if (cursor) {
    where += ` and ("uploads"."created_at", "uploads"."id") < (?, ?)`
    args.push(cursor.createdAt.getTime(), cursor.id)
  }
  args.push(limit + 1)
  const { rows } = await client.execute({ sql: `select ${GALLERY_COLUMNS} from "uploads" where (${where}) ${NEWEST_FIRST} limit ?`, args })
  return {
    status: 200,
    body: {
      items: rows.slice(0, limit).map(row => ({
        id: row.id, kind: row.kind, author: row.author, message: row.message, ...media(row),
        width: row.width, height: row.height, durationSec: row.duration_sec, createdAt: iso(row.created_at),
      })),
      nextCursor: nextCursor(rows, limit),
    },
  }
}

/**
 * The service's search (server/utils/admin/search.ts) for the list without a status or kind
 * filter, in the SQL it sends: the index's first matches in key order (the list's order, save
 * for uploads made in the same millisecond, put in order here as there) and its capped count; a
 * short query is a LIKE over the newest uploads.
 */
async function adminList(params: URLSearchParams) {
  const limit = Number(params.get('limit') ?? 50)
  const q = params.get('q')?.trim()
  const cursor = params.has('cursor') ? decodeUploadCursor(params.get('cursor')!) : undefined
  if (cursor === null) return { status: 400, body: { statusCode: 400 } }
  const keyset = cursor ? ` and ("uploads"."created_at", "uploads"."id") < (?, ?)` : ''
  const keysetArgs = cursor ? [cursor.createdAt.getTime(), cursor.id] : []
  const walk = (filter: string, args: (string | number)[]) => ({
    sql: `select ${LIST_COLUMNS} from "uploads" where (${filter}${keyset}) ${NEWEST_FIRST} limit ?`, args: [...args, ...keysetArgs, limit + 1],
  })
  const confirmed = `"uploads"."confirmed_at" is not null`
  const like = `"uploads"."search_text" LIKE ? ESCAPE ?`
  const phrase = q ? trigramPhrase(q) : null
  const indexPage = (reading: number) => ({
    sql: `select ${LIST_COLUMNS.replace(/"(\w+)"/g, '"uploads"."$1"')} from "uploads_fts" cross join "upload_search_keys" cross join "uploads"
      where ("uploads_fts" MATCH ? and "upload_search_keys"."key" = "uploads_fts"."rowid" and "uploads"."id" = "upload_search_keys"."upload_id"
      and (${confirmed}${cursor ? ` and "uploads_fts"."rowid" >= (8796093022208 - ?) * 1024` : ''}${keyset})) order by "uploads_fts"."rowid" asc limit ?`,
    args: [phrase!, ...(cursor ? [cursor.createdAt.getTime()] : []), ...keysetArgs, reading],
  })
  let statements: { sql: string, args: (string | number)[] }[]
  let cut = false
  if (!q) {
    statements = [walk(confirmed, []), { sql: `select count(*) from "uploads" where ${confirmed}`, args: [] }]
  }
  else if (phrase === null) {
    const edge = await client.execute({ sql: `select "created_at", "id" from "uploads" where ${confirmed} ${NEWEST_FIRST} limit 2 offset ?`, args: [SHORT_SEARCH_WINDOW - 1] })
    cut = edge.rows.length > 1
    const from = edge.rows[0] ? ` and ("uploads"."created_at", "uploads"."id") >= (?, ?)` : ''
    const args = [containsPattern(q), LIKE_ESCAPE, ...(edge.rows[0] ? [Number(edge.rows[0].created_at), String(edge.rows[0].id)] : [])]
    statements = [walk(`${confirmed} and ${like}${from}`, args), {
      sql: `select count(*) from (select 1 from "uploads" where ${confirmed} and ${like}${from} limit ?)`, args: [...args, SEARCH_TOTAL_LIMIT + 1],
    }]
  }
  else {
    statements = [indexPage(limit + 1 + 1), {
      sql: `select count(*) from (select 1 from "uploads_fts" where "uploads_fts" MATCH ? limit ?)`, args: [phrase, SEARCH_TOTAL_LIMIT + 1],
    }]
  }
  // One read batch, one snapshot, as the service does.
  const answers = await client.batch([...statements, { sql: `select "cover_upload_id" from "event_settings"`, args: [] }], 'read')
  let rows = answers[0]!.rows
  // Uploads made in one millisecond come from the index in any order: read on until the page's
  // milliseconds are complete, then sort, as the service does.
  for (let reading = limit + 1 + 1; phrase && rows.length === reading;) {
    const oldest = Number(rows[rows.length - 1]!.created_at)
    if (rows.filter(row => Number(row.created_at) > oldest).length >= limit + 1) {
      rows = rows.filter(row => Number(row.created_at) > oldest)
      break
    }
    reading *= 4
    rows = (await client.execute(indexPage(reading))).rows
  }
  if (phrase) rows = [...rows].sort((a, b) => Number(b.created_at) - Number(a.created_at) || (String(a.id) < String(b.id) ? 1 : -1))
  const settings = answers.at(-1)
  const counted = Number(answers[1]!.rows[0]![0])
  const total = q ? Math.min(counted, SEARCH_TOTAL_LIMIT) : counted
  const totalIsLowerBound = cut || (Boolean(q) && counted > SEARCH_TOTAL_LIMIT)
  const cover = settings!.rows[0]?.cover_upload_id ?? null
  return {
    status: 200,
    body: {
      items: rows.slice(0, limit).map(row => ({
        id: row.id, status: row.status, kind: row.kind, author: row.author, message: row.message,
        fileName: row.file_name, contentType: row.content_type, size: row.size, width: row.width, height: row.height,
        durationSec: row.duration_sec, ...media(row),
        originalUrl: row.kind === 'video' ? publicUrl(String(row.storage_key)) : signedUrl(String(row.storage_key)),
        isCover: row.id === cover, createdAt: iso(row.created_at), confirmedAt: iso(row.confirmed_at), updatedAt: iso(row.updated_at),
      })),
      nextCursor: nextCursor(rows, limit),
      total,
      totalIsLowerBound,
    },
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', origin)
  try {
    const answer = url.pathname === '/api/gallery'
      ? await gallery(url.searchParams)
      : url.pathname === '/api/admin/uploads'
        ? await adminList(url.searchParams)
        : { status: 404, body: { statusCode: 404 } }
    res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(JSON.stringify(answer.body))
  }
  catch (error) {
    res.writeHead(500, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ statusCode: 500, message: String(error) }))
  }
})
server.listen(port, '127.0.0.1', () => console.log(`listening ${port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
