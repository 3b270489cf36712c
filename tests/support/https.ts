import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A throw-away self-signed certificate for 127.0.0.1, made with Debian's openssl, as the built
 * server's environment for serving https itself (Nitro's node preset reads NITRO_SSL_CERT/KEY).
 */
export function selfSignedCertificate(): { NITRO_SSL_CERT: string, NITRO_SSL_KEY: string } {
  const dir = mkdtempSync(join(tmpdir(), 'event-media-tls-'))
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' })
    return { NITRO_SSL_CERT: readFileSync(join(dir, 'cert.pem'), 'utf8'), NITRO_SSL_KEY: readFileSync(join(dir, 'key.pem'), 'utf8') }
  }
  finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** GET without checking the certificate (fetch cannot be told to trust a self-signed one). */
export function getInsecure(url: string): Promise<{ status: number, headers: IncomingHttpHeaders, body: string }> {
  const send = url.startsWith('https:') ? httpsRequest : request
  return new Promise((resolve, reject) => {
    const req = send(url, { rejectUnauthorized: false, agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}
