import { type AgentTool, type AgentToolFactory, toolNodeAlone } from '#sdk/ai'
import { MCP_DEFAULT_TIMEOUT_MS, MCP_MAX_TIMEOUT_MS, MCP_MIN_TIMEOUT_MS } from './index.js'
import { callMcpTool, listMcpTools, type McpServer } from './lib/mcp_client.js'

function serverOf(
  options: Record<string, any>,
  credentials: Record<string, any> | undefined
): McpServer {
  const address = String(options.serverUrl ?? '').trim()
  let url: URL
  try {
    url = new URL(address)
  } catch {
    throw new Error(`MCP client: "${address}" is not a URL`)
  }
  const headers: Record<string, string> = {}
  for (const entry of (credentials?.headers ?? []) as { key?: string; value?: string }[]) {
    if (entry?.key?.trim() && entry.value !== undefined && entry.value !== '')
      headers[entry.key.trim()] = String(entry.value)
  }
  const token = String(credentials?.bearerToken ?? '').trim()
  if (token) headers['authorization'] = `Bearer ${token}`
  const timeout = Number(options.timeout)
  return {
    url,
    headers,
    timeoutMs:
      Number.isFinite(timeout) && timeout > 0
        ? Math.min(Math.max(Math.round(timeout), MCP_MIN_TIMEOUT_MS), MCP_MAX_TIMEOUT_MS)
        : MCP_DEFAULT_TIMEOUT_MS,
  }
}

/** Tool names the model may see: letters, digits, _ and - (OpenAI's rule, the strictest). */
const modelName = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)

/**
 * The server's tools, listed when the agent starts (a server that cannot be reached fails
 * the agent node with the reason). Each becomes an agent tool whose call opens a session,
 * calls the tool and hands its text content to the model; a failed call goes back to the
 * model as error text.
 */
export const agentTools: AgentToolFactory = async ({ options, credentials, http }) => {
  const server = serverOf(options, credentials)
  let listed
  try {
    listed = await listMcpTools(http, server)
  } catch (error) {
    throw new Error(
      `MCP client: could not list the tools of ${server.url.host}: ${(error as Error).message}`
    )
  }
  const wanted = String(options.include ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const missing = wanted.filter((name) => !listed.some((tool) => tool.name === name))
  if (missing.length > 0) {
    throw new Error(
      `MCP client: ${server.url.host} has no tool named ${missing.map((name) => `"${name}"`).join(', ')}`
    )
  }
  const tools: AgentTool[] = []
  for (const tool of listed) {
    if (wanted.length > 0 && !wanted.includes(tool.name)) continue
    tools.push({
      schema: {
        name: modelName(tool.name),
        description: tool.description,
        parameters: { type: 'object', properties: {}, required: [], ...tool.inputSchema } as any,
      },
      async execute(args) {
        try {
          return await callMcpTool(http, server, tool.name, args)
        } catch (error) {
          return `Error: ${(error as Error).message}`
        }
      },
    })
  }
  return tools
}

/** Run as a step of its own, the node only says where it belongs. */
export const run = toolNodeAlone
