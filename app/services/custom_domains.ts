import { createHmac } from 'node:crypto'
import { Resolver } from 'node:dns/promises'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { appKey, appUrl } from '#config/app'
import { viewerBaseUrl } from '#services/public_surface'

/*
| Custom domains (docs/custom_domains.md). A bot's custom domain is `host[/path]`; it is
| served only once the workspace proved control of the host with a DNS TXT record whose
| value the server derives from the workspace and the host. The app's own hosts and their
| subdomains can never be claimed: a bot there would replace the app's pages (a sign-in
| page on the real domain) or shadow another tenant's public id.
*/

/** Where the TXT record goes, under the claimed host. */
export const CHALLENGE_LABEL = '_flowcraft-challenge'

function hostnameOf(url: string) {
  if (!url) return ''
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** The host part of `host[/path]`, lower case. */
export function domainHost(domain: string) {
  return domain.split('/')[0].toLowerCase()
}

/** Hosts a custom domain may not be, nor be under: the app's and the viewer's. */
export function reservedHosts() {
  return [
    hostnameOf(appUrl),
    hostnameOf(viewerBaseUrl()),
    hostnameOf(env.get('SUPPORT_VIEWER_URL') ?? ''),
  ].filter((host, index, all) => host && all.indexOf(host) === index)
}

export function isReservedHost(host: string) {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
  return reservedHosts().some((reserved) => name === reserved || name.endsWith(`.${reserved}`))
}

/**
 * Whether a verified custom domain is this host, alone or with a path. Such a host belongs to
 * the tenant who proved it: it serves the bots bound to it and no other public id, or any
 * tenant's bot could be shown under another tenant's name.
 */
export async function isClaimedHost(host: string): Promise<boolean> {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
  if (!name || isReservedHost(name)) return false
  // `!` escapes LIKE's wildcards the same way in SQLite, PostgreSQL and MySQL (a backslash
  // is itself an escape in MySQL's string literals).
  const escaped = name.replace(/[!%_]/g, (char) => `!${char}`)
  const row = await db
    .from('bots')
    .whereNotNull('custom_domain_verified_at')
    .where((query) =>
      query
        .where('custom_domain', name)
        .orWhereRaw("custom_domain like ? escape '!'", [`${escaped}/%`])
    )
    .select('id')
    .first()
  return Boolean(row)
}

/** The TXT record that proves a workspace controls `host`. */
export function verificationRecord(workspaceId: string, host: string) {
  const token = createHmac('sha256', appKey.release())
    .update(`custom-domain:${workspaceId}:${host.toLowerCase()}`)
    .digest('hex')
    .slice(0, 32)
  return {
    type: 'TXT' as const,
    name: `${CHALLENGE_LABEL}.${host.toLowerCase()}`,
    value: `flowcraft-verification=${token}`,
  }
}

let dnsServers: string[] = (env.get('DNS_SERVERS') ?? '')
  .split(',')
  .map((server) => server.trim())
  .filter(Boolean)

/**
 * Points the TXT lookups at other DNS servers while the process runs (tests answer from
 * a local DNS server); returns a function that puts the previous ones back.
 */
export function overrideDnsServers(servers: string[]) {
  const previous = dnsServers
  dnsServers = servers
  return () => {
    dnsServers = previous
  }
}

/** Whether the TXT records of the challenge name hold the workspace's value. */
export async function hostProvesControl(workspaceId: string, host: string): Promise<boolean> {
  const record = verificationRecord(workspaceId, host)
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (dnsServers.length) resolver.setServers(dnsServers)
  let records: string[][]
  try {
    records = await resolver.resolveTxt(record.name)
  } catch {
    // No such name, no TXT record, or no answer: not proven.
    return false
  }
  return records.some((chunks) => chunks.join('').trim() === record.value)
}
