import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { HttpClient } from '#sdk/plugin'

/**
 * An MCP client session over streamable HTTP whose every request goes through the guarded
 * HTTP client (no internal hosts unless allowed, timeouts). A session is opened per use
 * (listing, one call) and closed after it: a workflow run holds no connection between its
 * steps, and stateless servers need nothing else.
 */

export interface McpServer {
  url: URL
  headers: Record<string, string>
  timeoutMs: number
}

export interface McpToolInfo {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
}

function guardedFetch(http: HttpClient, timeoutMs: number) {
  return async (url: string | URL, init: RequestInit = {}) => {
    const headers: Record<string, string> = {}
    new Headers(init.headers).forEach((value, key) => (headers[key] = value))
    const response = await http.request(url, {
      method: init.method ?? 'GET',
      headers,
      body: (init.body ?? undefined) as string | undefined,
      timeoutMs,
      signal: init.signal ?? undefined,
    })
    // The SDK's own message for a refusal leaves the status out; the builder needs it.
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => {})
      throw new Error(`the server refused the credentials (${response.status})`)
    }
    return response
  }
}

const CLIENT_INFO = { name: 'flowcraft-agent', version: '1.0.0' }

export async function withMcpSession<T>(
  http: HttpClient,
  server: McpServer,
  use: (client: Client) => Promise<T>
): Promise<T> {
  const transport = new StreamableHTTPClientTransport(server.url, {
    fetch: guardedFetch(http, server.timeoutMs),
    requestInit: { headers: server.headers },
  })
  const client = new Client(CLIENT_INFO)
  try {
    await client.connect(transport, { timeout: server.timeoutMs })
    return await use(client)
  } finally {
    // Ends the session on the server too (DELETE) when it gave one.
    await transport.terminateSession().catch(() => {})
    await client.close().catch(() => {})
  }
}

export async function listMcpTools(http: HttpClient, server: McpServer): Promise<McpToolInfo[]> {
  return withMcpSession(http, server, async (client) => {
    const tools: McpToolInfo[] = []
    let cursor: string | undefined
    // A server pages its list; a bounded number of pages is followed.
    for (let page = 0; page < 20; page++) {
      const result = await client.listTools(cursor ? { cursor } : {}, { timeout: server.timeoutMs })
      for (const tool of result.tools) {
        tools.push({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema as Record<string, unknown>,
        })
      }
      cursor = result.nextCursor
      if (!cursor) break
    }
    return tools
  })
}

/** What a call answered, as the text the model reads (errors marked as such). */
export async function callMcpTool(
  http: HttpClient,
  server: McpServer,
  name: string,
  args: Record<string, unknown>
): Promise<string> {
  const result = await withMcpSession(http, server, (client) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: server.timeoutMs })
  )
  const parts: string[] = []
  for (const item of (result.content ?? []) as Record<string, any>[]) {
    if (item.type === 'text') parts.push(String(item.text))
    else if (item.type === 'resource' && typeof item.resource?.text === 'string')
      parts.push(item.resource.text)
    else if (item.type === 'resource_link') parts.push(`${item.name ?? 'resource'}: ${item.uri}`)
    else parts.push(`[${item.type} content]`)
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent))
  }
  const text = parts.join('\n')
  return result.isError ? `Error: ${text || 'the tool failed'}` : text
}
