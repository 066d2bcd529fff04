import { BlockList, isIP } from 'node:net'

/*
| Which peers may tell the app the client's address (X-Forwarded-For) and protocol
| (X-Forwarded-Proto): TRUSTED_PROXIES, a comma-separated list of addresses, CIDR ranges and
| the names loopback, linklocal and uniquelocal (docs/security.md, "Request limits"). Unset,
| no peer is trusted: the client address is the connection's, which a client cannot forge.
*/

const NAMED: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is checked as `10.0.0.1`. */
function plain(address: string) {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1] : address
}

/** The list parsed into a `trustProxy` function for config/app.ts; throws on a bad entry. */
export function trustedProxies(value: string | undefined): (address: string) => boolean {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) return () => false
  const list = new BlockList()
  for (const entry of entries) {
    const named = NAMED[entry.toLowerCase()]
    if (named) {
      for (const [network, prefix, type] of named) list.addSubnet(network, prefix, type)
      continue
    }
    const [address, prefixText] = entry.split('/')
    const type = isIP(address) === 4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : null
    const prefix = prefixText === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefixText)
    const max = type === 'ipv4' ? 32 : 128
    if (!type || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new Error(
        `TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`
      )
    }
    list.addSubnet(address, prefix, type)
  }
  return (address) => {
    const ip = plain(address)
    const type = isIP(ip)
    if (!type) return false
    return list.check(ip, type === 4 ? 'ipv4' : 'ipv6')
  }
}
