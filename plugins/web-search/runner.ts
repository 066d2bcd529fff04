import { type AgentToolFactory, ProviderError, toolNodeAlone } from '#sdk/ai'
import { SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS } from './index.js'
import { accountOf, searchWeb } from './lib/search_apis.js'

/**
 * The tool this node lends the agent it is plugged into: `{ query }` in, the results as
 * JSON text out. A failed search goes back to the model as error text (it may rephrase or
 * answer without); a missing key stops the agent before its first call.
 */
export const agentTools: AgentToolFactory = ({ options, credentials, http, signal }) => {
  const account = accountOf(credentials)
  if (!account.apiKey) throw new Error('Web search: the account has no API key')
  const count = Math.min(
    Math.max(Math.round(Number(options.maxResults) || SEARCH_DEFAULT_RESULTS), 1),
    SEARCH_MAX_RESULTS
  )
  return {
    schema: {
      name: String(options.name || 'web_search').trim(),
      description: String(options.description || '').trim() || 'Searches the web.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to search for' } },
        required: ['query'],
      },
    },
    async execute(args) {
      const query = typeof args.query === 'string' ? args.query.trim() : ''
      if (!query) return 'Error: give a query to search for'
      try {
        const results = await searchWeb(http, account, query, count, signal)
        if (results.length === 0) return `No results for "${query}"`
        return JSON.stringify(results)
      } catch (error) {
        const reason =
          error instanceof ProviderError
            ? `the search API answered ${error.status}: ${error.message}`
            : (error as Error).message
        return `Error: ${reason}`
      }
    },
  }
}

/** Run as a step of its own, the node only says where it belongs. */
export const run = toolNodeAlone
