import { createClient } from '@libsql/client'

export interface UploadRowView {
  id: string
  status: string
  kind: string
  author: string
  message: string
  file_name: string
  content_type: string
  size: number
  storage_key: string
  confirmed_at: number | null
  content_hash: string | null
}

/** Reads the server's own database file directly, to check what really got recorded. */
export async function uploadRows(dbPath: string): Promise<UploadRowView[]> {
  const client = createClient({ url: `file:${dbPath}` })
  try {
    const result = await client.execute('SELECT id, status, kind, author, message, file_name, content_type, size, storage_key, confirmed_at, content_hash FROM uploads ORDER BY created_at')
    return result.rows.map(row => ({ ...row }) as unknown as UploadRowView)
  }
  finally {
    client.close()
  }
}
