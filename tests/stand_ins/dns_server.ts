import { createSocket, type RemoteInfo } from 'node:dgram'

/**
 * A small authoritative DNS server on a loopback UDP port, answering TXT questions from a
 * table the test fills (custom domain verification, docs/custom_domains.md). It speaks the
 * wire format of RFC 1035: one question per query, TXT answers, NXDOMAIN for other names.
 */
export interface DnsStandIn {
  /** `127.0.0.1:port`, for Resolver.setServers. */
  address: string
  /** TXT records by name (lower case, no trailing dot); each record one string. */
  txt: Map<string, string[]>
  /** How many queries arrived. */
  queries(): number
  close(): Promise<void>
}

function readName(message: Buffer, start: number) {
  const labels: string[] = []
  let offset = start
  while (offset < message.length) {
    const length = message[offset]
    if (length === 0) return { name: labels.join('.'), end: offset + 1 }
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('latin1'))
    offset += 1 + length
  }
  throw new Error('truncated name')
}

function answer(query: Buffer, txt: Map<string, string[]>) {
  const { name, end } = readName(query, 12)
  const type = query.readUInt16BE(end)
  const question = query.subarray(12, end + 4)
  const records = type === 16 ? (txt.get(name.toLowerCase()) ?? []) : []
  const known = txt.has(name.toLowerCase())
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2)
  // Response, authoritative, recursion desired and available; NXDOMAIN for unknown names.
  header.writeUInt16BE(0x8580 | (known ? 0 : 3), 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(records.length, 6)
  const answers = records.map((value) => {
    const text = Buffer.from(value, 'utf8')
    const chunks: Buffer[] = []
    for (let at = 0; at < text.length || at === 0; at += 255) {
      const part = text.subarray(at, at + 255)
      chunks.push(Buffer.from([part.length]), part)
      if (text.length === 0) break
    }
    const rdata = Buffer.concat(chunks)
    const fixed = Buffer.alloc(12)
    fixed.writeUInt16BE(0xc00c, 0) // the question's name
    fixed.writeUInt16BE(16, 2) // TXT
    fixed.writeUInt16BE(1, 4) // IN
    fixed.writeUInt32BE(1, 6) // TTL
    fixed.writeUInt16BE(rdata.length, 10)
    return Buffer.concat([fixed, rdata])
  })
  return Buffer.concat([header, question, ...answers])
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const socket = createSocket('udp4')
  const txt = new Map<string, string[]>()
  let count = 0
  socket.on('message', (message: Buffer, from: RemoteInfo) => {
    count++
    try {
      socket.send(answer(message, txt), from.port, from.address)
    } catch {
      // A malformed query gets no answer, as from a real server.
    }
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    queries: () => count,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
