import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import * as z from 'zod'

/**
 * A real MCP server (the official SDK's McpServer over its streamable HTTP transport, with
 * sessions), for tests of the MCP client tool. Its tools: `add` (two numbers), `weather`
 * (a city, answers a text) and `fail` (always an error result). It records the JSON-RPC
 * methods it received and refuses requests without the expected bearer token.
 */

export interface McpRecorded {
  method: string
  rpc?: string
  authorization?: string
  session?: string
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      try {
        resolve(text ? JSON.parse(text) : undefined)
      } catch (error) {
        reject(error)
      }
    })
    req.on('error', reject)
  })
}

function mcpServer() {
  const server = new McpServer({ name: 'test-tools', version: '1.0.0' })
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })
  )
  server.registerTool(
    'weather',
    {
      description: 'The weather of a city',
      inputSchema: { city: z.string().describe('A city name') },
    },
    async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}, 21°C` }] })
  )
  server.registerTool('fail', { description: 'Always fails' }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'the backend is down' }],
  }))
  return server
}

export async function startMcpServer(options: { token?: string } = {}) {
  const requests: McpRecorded[] = []
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const http = createServer(async (req, res) => {
    const body = req.method === 'POST' ? await readJson(req).catch(() => undefined) : undefined
    const session = req.headers['mcp-session-id'] as string | undefined
    requests.push({
      method: req.method ?? 'GET',
      rpc: (body as any)?.method,
      authorization: req.headers.authorization,
      session,
    })
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: 'invalid_token' }))
    }
    let transport = session ? sessions.get(session) : undefined
    if (session && !transport) {
      res.writeHead(404, { 'content-type': 'application/json' })
      return res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found' },
          id: null,
        })
      )
    }
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
        onsessionclosed: (id) => void sessions.delete(id),
      })
      transport = created
      await mcpServer().connect(transport)
    }
    await transport.handleRequest(req, res, body)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    /** Sessions still open on the server. */
    openSessions: () => sessions.size,
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => {})
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
