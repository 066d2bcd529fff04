import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { HttpClient, HttpRequestOptions } from './define_plugin.js'

/**
 * The HTTP client runners get. Builders type the URLs, so without a guard a block could
 * reach the database, the cloud metadata endpoint or anything else on the server's
 * network. Every hop (redirects included) must resolve to public addresses only, unless
 * the operator sets ALLOW_INTERNAL_HTTP (self-hosters calling their own services).
 *
 * Known limit: fetch resolves the host again after our check, so a DNS server answering
 * differently within milliseconds (rebinding) is not covered; a network-level egress
 * rule is the complete answer.
 */

export const DEFAULT_TIMEOUT_MS = 10_000
export const MAX_REDIRECTS = 5

export type LookupFunction = (hostname: string) => Promise<{ address: string; family: number }[]>

export interface GuardedHttpOptions {
  /** Let requests reach private, loopback and link-local hosts (ALLOW_INTERNAL_HTTP). */
  allowInternal?: boolean
  /**
   * Internal hosts reachable even without allowInternal (CREDENTIAL_INTERNAL_HOSTS): a
   * self-hosted model server an operator lets credentials reach, without opening the rest of
   * the network. Entries are `host` (any port) or `host:port`, as parseHostList reads them.
   */
  allowedInternalHosts?: readonly AllowedHost[]
  timeoutMs?: number
  maxRedirects?: number
  /** For tests: replaces the DNS lookup. */
  lookup?: LookupFunction
  /** For tests: replaces global fetch. */
  fetch?: typeof fetch
  /**
   * Sent as the Idempotency-Key header of every request that may change something (not
   * GET, HEAD or OPTIONS), unless the caller sets one: the n-th such request of this client
   * carries the key, then `<key>-2`, `<key>-3`... A node run again after a crash makes the
   * same requests in the same order, so a receiver sees the keys of the first attempt again
   * and can drop the repeats (docs/queue.md, "Delivery").
   */
  idempotencyKey?: string
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export class BlockedRequestError extends Error {
  constructor(
    message: string,
    readonly details?: Record<string, unknown>
  ) {
    super(message)
    this.name = 'BlockedRequestError'
  }
}

export class RequestTimeoutError extends Error {
  constructor(url: string, timeoutMs: number) {
    super(`The request to ${url} timed out after ${timeoutMs} ms`)
    this.name = 'RequestTimeoutError'
  }
}

// ---------------------------------------------------------------------------
// Address classification
// ---------------------------------------------------------------------------

function ipv4ToNumber(address: string) {
  const parts = address.split('.').map(Number)
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3]
}

/** [network, prefix length] of every IPv4 range that is not the public internet. */
const IPV4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
]

function inIpv4Range(address: string, network: string, prefix: number) {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0
  return (ipv4ToNumber(address) & mask) >>> 0 === (ipv4ToNumber(network) & mask) >>> 0
}

function isInternalIpv4(address: string) {
  return IPV4_BLOCKED.some(([network, prefix]) => inIpv4Range(address, network, prefix))
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or null when invalid. */
export function parseIpv6(input: string): number[] | null {
  let address = input.replace(/^\[|\]$/g, '').split('%')[0]
  if (isIP(address) !== 6) return null
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = address.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const n = ipv4ToNumber(dotted[1])
    address =
      address.slice(0, -dotted[1].length) +
      `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined]
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const missing = 8 - headGroups.length - tailGroups.length
  const groups = [
    ...headGroups,
    ...(tail !== undefined ? Array(missing).fill('0') : []),
    ...tailGroups,
  ].map((group) => Number.parseInt(group, 16))
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null
}

function embeddedIpv4(groups: number[], from: number) {
  return [
    groups[from] >> 8,
    groups[from] & 0xff,
    groups[from + 1] >> 8,
    groups[from + 1] & 0xff,
  ].join('.')
}

function isInternalIpv6(address: string) {
  const g = parseIpv6(address)
  if (!g) return true
  const zeros = (count: number) => g.slice(0, count).every((group) => group === 0)
  if (zeros(8)) return true // :: unspecified
  if (zeros(7) && g[7] === 1) return true // ::1 loopback
  if (zeros(5) && g[5] === 0xffff) return isInternalIpv4(embeddedIpv4(g, 6)) // ::ffff:a.b.c.d mapped
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return isInternalIpv4(embeddedIpv4(g, 6)) // ::ffff:0:a.b.c.d translated
  if (zeros(6)) return isInternalIpv4(embeddedIpv4(g, 6)) // ::a.b.c.d compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return isInternalIpv4(embeddedIpv4(g, 6)) // 64:ff9b::/96 NAT64
  }
  if (g[0] === 0x2002) return isInternalIpv4(embeddedIpv4(g, 1)) // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true // ff00::/8 multicast
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return true // 100::/64 discard
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true // documentation
  return false
}

/** Whether an IP address is private, loopback, link-local, multicast or otherwise not public. */
export function isInternalAddress(address: string): boolean {
  const clean = address.replace(/^\[|\]$/g, '')
  const version = isIP(clean.split('%')[0])
  if (version === 4) return isInternalIpv4(clean)
  if (version === 6) return isInternalIpv6(clean)
  // Not an address at all: refuse rather than guess.
  return true
}

// ---------------------------------------------------------------------------
// URL checks
// ---------------------------------------------------------------------------

/** One entry of an operator's list of reachable internal hosts. */
export interface AllowedHost {
  /** Lower case; an IPv6 address without its brackets. */
  host: string
  /** Null: any port. */
  port: number | null
}

/**
 * Reads `host`, `host:port`, `[v6]` and `[v6]:port` entries separated by commas or spaces.
 * Throws on an entry that is not one of them, so a typo stops the boot instead of leaving a
 * server silently unreachable.
 */
export function parseHostList(value: string | undefined): AllowedHost[] {
  if (!value) return []
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/i.exec(entry)
      const port = match?.[3] === undefined ? null : Number(match[3])
      if (!match || (port !== null && (port < 1 || port > 65535))) {
        throw new Error(`"${entry}" is not a host or host:port`)
      }
      return { host: (match[1] ?? match[2]).toLowerCase(), port }
    })
}

function defaultPort(url: URL) {
  return url.protocol === 'https:' ? 443 : 80
}

function isAllowedHost(url: URL, allowed: readonly AllowedHost[] | undefined) {
  if (!allowed?.length) return false
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = url.port ? Number(url.port) : defaultPort(url)
  return allowed.some(
    (entry) => entry.host === host && (entry.port === null || entry.port === port)
  )
}

const defaultLookup: LookupFunction = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true })

/**
 * Throws a BlockedRequestError unless the URL is http(s) and its host resolves only to
 * public addresses (or allowInternal is set, or the host is on allowedInternalHosts). Returns the
 * parsed URL.
 */
export async function assertAllowedUrl(
  input: string | URL,
  options: Pick<GuardedHttpOptions, 'allowInternal' | 'allowedInternalHosts' | 'lookup'> = {}
): Promise<URL> {
  let url: URL
  try {
    url = new URL(String(input))
  } catch {
    throw new BlockedRequestError(`Invalid URL: ${String(input)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedRequestError(
      `Only http and https URLs are allowed (got ${url.protocol.replace(/:$/, '')})`,
      { url: url.href }
    )
  }
  if (options.allowInternal || isAllowedHost(url, options.allowedInternalHosts)) return url

  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(hostname)) {
    addresses = [hostname]
  } else {
    try {
      addresses = (await (options.lookup ?? defaultLookup)(hostname)).map((entry) => entry.address)
    } catch (error: any) {
      throw new BlockedRequestError(`Could not resolve the host ${hostname}`, {
        url: url.href,
        code: error?.code,
      })
    }
    if (addresses.length === 0)
      throw new BlockedRequestError(`Could not resolve the host ${hostname}`)
  }
  const internal = addresses.filter((address) => isInternalAddress(address))
  if (internal.length > 0) {
    throw new BlockedRequestError(
      `Requests to internal network addresses are not allowed (${hostname} resolves to ${internal.join(', ')}). ` +
        'An administrator can let credentials reach this host with CREDENTIAL_INTERNAL_HOSTS, ' +
        'or allow every internal address with ALLOW_INTERNAL_HTTP=true.',
      { url: url.href, addresses }
    )
  }
  return url
}

// ---------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

export function createGuardedHttp(defaults: GuardedHttpOptions = {}): HttpClient {
  const doFetch = defaults.fetch ?? globalThis.fetch
  const maxRedirects = defaults.maxRedirects ?? MAX_REDIRECTS
  let keyed = 0

  return {
    async request(input, options: HttpRequestOptions = {}) {
      const timeoutMs = options.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout

      let url = await assertAllowedUrl(input, defaults)
      let method = (options.method ?? 'GET').toUpperCase()
      let body = options.body
      const headers = { ...options.headers }
      if (defaults.idempotencyKey && !SAFE_METHODS.has(method)) {
        const own = Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')
        if (!own) {
          keyed++
          headers['Idempotency-Key'] =
            keyed === 1 ? defaults.idempotencyKey : `${defaults.idempotencyKey}-${keyed}`
        }
      }

      for (let hop = 0; ; hop++) {
        let response: Response
        try {
          response = await doFetch(url, { method, headers, body, signal, redirect: 'manual' })
        } catch (error) {
          if (timeout.aborted) throw new RequestTimeoutError(url.href, timeoutMs)
          throw error
        }
        const location = response.headers.get('location')
        if (!REDIRECT_STATUSES.has(response.status) || !location) return response

        // Free the connection of the redirect response before the next hop.
        await response.body?.cancel().catch(() => {})
        if (hop >= maxRedirects) {
          throw new BlockedRequestError(`Too many redirects (more than ${maxRedirects})`, {
            url: url.href,
          })
        }
        const next = await assertAllowedUrl(new URL(location, url), defaults)
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && method === 'POST')
        ) {
          method = method === 'HEAD' ? 'HEAD' : 'GET'
          body = undefined
          for (const name of Object.keys(headers)) {
            if (['content-type', 'content-length'].includes(name.toLowerCase()))
              delete headers[name]
          }
        }
        if (next.origin !== url.origin) {
          for (const name of Object.keys(headers)) {
            if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name]
          }
        }
        url = next
      }
    },
  }
}
