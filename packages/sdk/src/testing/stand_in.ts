import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The HTTP shell the stand-ins share (listen, read the whole body, record the request), so
 * each stand-in file holds only what its protocol answers.
 */

/** What the stand-ins record unless they say otherwise. */
export interface StandInRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: any
}

export interface StandInExchange {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  raw: Buffer
  text: string
  /** The body parsed as JSON; undefined when it is empty or not JSON (see `isJson`). */
  body: any
  isJson: boolean
}

export interface StandInContext<R> extends StandInExchange {
  /** What `record` returned for this request (the same object as in `requests`). */
  recorded: R
  /** Everything recorded so far, this request included. */
  requests: NonNullable<R>[]
}

export interface StandInOptions<R> {
  /** Fixed for stand-ins whose address the app is configured with before they start. */
  port?: number
  /** The entry kept for a request; undefined keeps none. */
  record?: (exchange: StandInExchange) => R
  /**
   * Cut open connections on close: streams, delayed answers and dropped sockets would
   * otherwise keep `server.close` waiting.
   */
  closeConnections?: boolean
}

/** A refused body is not recorded: the real service would not have taken the request. */
function recordJson(exchange: StandInExchange): StandInRequest | undefined {
  if (exchange.text && !exchange.isJson) return undefined
  const { req, url, body } = exchange
  return { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body }
}

/** For stand-ins that look at the body as sent and read it as JSON only where their API does. */
export interface TextStandInRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  json?: any
}

export function recordText({ req, url, text }: StandInExchange): TextStandInRequest {
  return { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: text }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function sendJson(
  res: ServerResponse,
  status: number,
  data: unknown,
  contentType = 'application/json'
) {
  res.writeHead(status, { 'content-type': contentType })
  res.end(JSON.stringify(data))
}

export async function startStandIn<R = StandInRequest | undefined>(
  handle: (context: StandInContext<R>) => unknown,
  options: StandInOptions<R> = {}
) {
  const requests: NonNullable<R>[] = []
  const record = options.record ?? (recordJson as (exchange: StandInExchange) => R)

  const server: Server = createServer(async (req, res) => {
    let raw: Buffer
    try {
      raw = await readBody(req)
    } catch {
      // The client broke off mid-body: there is no one left to answer.
      return res.destroy()
    }
    const text = raw.toString('utf8')
    let body: any
    let isJson = false
    if (text) {
      try {
        body = JSON.parse(text)
        isJson = true
      } catch {}
    }
    const url = new URL(req.url ?? '/', 'http://stand-in')
    const exchange: StandInExchange = { req, res, url, raw, text, body, isJson }
    const recorded = record(exchange)
    if (recorded !== undefined && recorded !== null) requests.push(recorded)
    await handle({ ...exchange, recorded, requests })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        if (options.closeConnections) server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
