import type { HttpClient } from '#sdk/plugin'
import { ensureOk } from '#sdk/ai'
import { SEARCH_BASE_URLS, SEARCH_PROVIDERS, type SearchProvider } from '../index.js'

/**
 * The search APIs behind the Web search tool, each answering the same list of results:
 * Tavily (POST /search, bearer key), Brave Search (GET /res/v1/web/search,
 * X-Subscription-Token) and Serper (POST /search, X-API-KEY).
 */

export interface SearchAccount {
  provider: SearchProvider
  apiKey: string
  baseUrl: string
}

export interface SearchResult {
  title: string
  url: string
  snippet: string
}

export function accountOf(credentials: Record<string, unknown> | undefined): SearchAccount {
  const provider = String(credentials?.provider ?? 'tavily') as SearchProvider
  if (!SEARCH_PROVIDERS.includes(provider))
    throw new Error(`Web search: unknown search API "${provider}"`)
  const baseUrl = String(credentials?.baseUrl ?? '').trim() || SEARCH_BASE_URLS[provider]
  return {
    provider,
    apiKey: String(credentials?.apiKey ?? '').trim(),
    baseUrl: baseUrl.replace(/\/+$/, ''),
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

export async function searchWeb(
  http: HttpClient,
  account: SearchAccount,
  query: string,
  count: number,
  signal?: AbortSignal
): Promise<SearchResult[]> {
  const timeoutMs = 20_000
  if (account.provider === 'tavily') {
    const response = await http.request(`${account.baseUrl}/search`, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
      timeoutMs,
      signal,
    })
    await ensureOk(response)
    const body = (await response.json()) as {
      results?: { title?: string; url?: string; content?: string }[]
    }
    return (body.results ?? []).map((item) => ({
      title: text(item.title),
      url: text(item.url),
      snippet: text(item.content),
    }))
  }
  if (account.provider === 'brave') {
    const url = new URL(`${account.baseUrl}/res/v1/web/search`)
    url.searchParams.set('q', query)
    url.searchParams.set('count', String(count))
    const response = await http.request(url, {
      headers: { 'x-subscription-token': account.apiKey, 'accept': 'application/json' },
      timeoutMs,
      signal,
    })
    await ensureOk(response)
    const body = (await response.json()) as {
      web?: { results?: { title?: string; url?: string; description?: string }[] }
    }
    return (body.web?.results ?? []).map((item) => ({
      title: text(item.title),
      url: text(item.url),
      // Brave marks the matched words with <strong>.
      snippet: text(item.description).replace(/<\/?strong>/g, ''),
    }))
  }
  const response = await http.request(`${account.baseUrl}/search`, {
    method: 'POST',
    headers: { 'x-api-key': account.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ q: query, num: count }),
    timeoutMs,
    signal,
  })
  await ensureOk(response)
  const body = (await response.json()) as {
    organic?: { title?: string; link?: string; snippet?: string }[]
  }
  return (body.organic ?? []).map((item) => ({
    title: text(item.title),
    url: text(item.link),
    snippet: text(item.snippet),
  }))
}
