import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isForbiddenAddress } from '#shared/notify/forbidden-address'

/** A receiver that does not answer in this long counts as a failed try. */
const POST_TIMEOUT_MS = 10_000

export class ForbiddenAddressError extends Error {
  constructor(address: string) {
    super(`refused to post to the link-local address ${address}`)
  }
}

/**
 * Resolves as the system would, then refuses when any address is link-local. Given to the socket
 * itself, so the address checked is the address connected to: a name that resolves to a harmless
 * address when saved and to 169.254.169.254 at send time (DNS rebinding) is still refused.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0)
    const list = addresses as LookupAddress[]
    const forbidden = list.find(entry => isForbiddenAddress(entry.address))
    if (forbidden || list.length === 0) return callback(new ForbiddenAddressError(forbidden?.address ?? hostname), '', 0)
    if ((options as LookupOptions).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

/**
 * POSTs `body` to `url` and answers the receiver's status (the answer's body is read and dropped).
 * Throws ForbiddenAddressError for a link-local destination, or the network's error.
 */
export function safePost(url: string, headers: Record<string, string>, body: string | Buffer): Promise<number> {
  const target = new URL(url)
  const host = target.hostname.replace(/^\[|\]$/g, '')
  // A literal address never reaches the lookup: it is checked here.
  if (isIP(host) && isForbiddenAddress(host)) return Promise.reject(new ForbiddenAddressError(host))
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const request = send({
      protocol: target.protocol,
      hostname: host,
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup,
      timeout: POST_TIMEOUT_MS,
    }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`no answer in ${POST_TIMEOUT_MS / 1000} s`)))
    request.on('error', reject)
    request.end(body)
  })
}
