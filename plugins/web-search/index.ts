import { definePlugin, field } from '#sdk/plugin'

export const SEARCH_PROVIDERS = ['tavily', 'brave', 'serper'] as const
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number]

export const SEARCH_BASE_URLS: Record<SearchProvider, string> = {
  tavily: 'https://api.tavily.com',
  brave: 'https://api.search.brave.com',
  serper: 'https://google.serper.dev',
}

export const SEARCH_DEFAULT_RESULTS = 5
export const SEARCH_MAX_RESULTS = 10

/**
 * A tool for LLM agent nodes: the model searches the web with a query of its own and reads
 * the titles, links and snippets found. One node, several search APIs (the account picks).
 */
export default definePlugin({
  id: 'web-search',
  name: 'Web search',
  fullName: 'Web search tool',
  tags: ['search', 'google', 'internet', 'agent'],
  description: 'Let an agent search the web (Tavily, Brave Search or Serper)',
  category: 'tool',
  scope: 'user',
  icon: 'search',
  version: 1,
  serves: ['workflow'],
  credentials: {
    provider: field.enum({
      label: 'Search API',
      options: [
        { label: 'Tavily', value: 'tavily' },
        { label: 'Brave Search', value: 'brave' },
        { label: 'Serper (Google results)', value: 'serper' },
      ],
      defaultValue: 'tavily',
      required: true,
    }),
    apiKey: field.string({ label: 'API key', secret: true, required: true }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      helperText: "Empty uses the search API's own address; set it only for a proxy.",
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'web-search',
      required: true,
    }),
    name: field.string({
      label: 'Tool name',
      defaultValue: 'web_search',
      pattern: '^[a-zA-Z0-9_-]{1,64}$',
      patternMessage: 'Letters, digits, _ and - only (64 at most)',
    }),
    description: field.string({
      label: 'Description',
      multiline: true,
      defaultValue: 'Searches the web. Use it for recent events and facts you are unsure of.',
      helperText: 'What the model reads to decide when to search.',
    }),
    maxResults: field.number({
      label: 'Results per search',
      min: 1,
      max: SEARCH_MAX_RESULTS,
      step: 1,
      defaultValue: SEARCH_DEFAULT_RESULTS,
    }),
  },
})
