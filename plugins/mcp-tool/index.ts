import { definePlugin, field } from '#sdk/plugin'

export const MCP_DEFAULT_TIMEOUT_MS = 30_000
export const MCP_MIN_TIMEOUT_MS = 1000
export const MCP_MAX_TIMEOUT_MS = 120_000

/**
 * A tool for LLM agent nodes: the tools of a remote MCP server (Model Context Protocol, over
 * streamable HTTP), listed when the agent starts and called when the model asks.
 */
export default definePlugin({
  id: 'mcp-tool',
  name: 'MCP client',
  fullName: 'Model Context Protocol client',
  tags: ['agent', 'mcp', 'tools', 'ai'],
  description: 'Give an agent the tools of a remote MCP server',
  category: 'tool',
  scope: 'user',
  icon: 'plug',
  version: 1,
  docsUrl: 'https://modelcontextprotocol.io/specification/2025-06-18/basic/transports',
  serves: ['workflow'],
  credentials: {
    bearerToken: field.string({
      label: 'Bearer token',
      secret: true,
      helperText: 'Sent as "Authorization: Bearer <token>" when the server asks for one.',
    }),
    headers: field.keyValue({
      label: 'Other headers',
      keyLabel: 'Header',
      valueLabel: 'Value',
    }),
  },
  options: {
    serverUrl: field.string({
      label: 'Server URL',
      placeholder: 'https://mcp.example.com/mcp',
      required: true,
      helperText: 'The streamable HTTP endpoint of the MCP server.',
    }),
    credentialsId: field.credentials({
      label: 'Authentication',
      credentialType: 'mcp-tool',
      helperText: 'Empty for a server without authentication.',
    }),
    include: field.string({
      label: 'Only these tools',
      placeholder: 'search, get_page',
      helperText: 'Tool names separated by commas; empty offers every tool of the server.',
    }),
    timeout: field.number({
      label: 'Timeout (ms)',
      min: MCP_MIN_TIMEOUT_MS,
      max: MCP_MAX_TIMEOUT_MS,
      step: 1000,
      defaultValue: MCP_DEFAULT_TIMEOUT_MS,
    }),
  },
})
