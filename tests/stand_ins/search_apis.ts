import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * One local stand-in speaking three web search APIs, each with its own authentication and
 * shape: Tavily (POST /search, bearer key, { results }), Brave Search (GET
 * /res/v1/web/search?q&count, X-Subscription-Token, { web: { results } }) and Serper
 * (POST /search with { q, num }, X-API-KEY, { organic }). A wrong key gets each API's refusal.
 */

export const SEARCH_HITS = [
  {
    title: 'Flowcraft 2.0 released',
    url: 'https://news.example/flowcraft',
    text: 'The release adds knowledge stores.',
  },
  {
    title: 'Flowcraft docs',
    url: 'https://docs.example/flowcraft',
    text: 'How to build a chatbot.',
  },
  { title: 'Third hit', url: 'https://x.example/3', text: 'More.' },
]

export async function startSearchStandIn(options: { apiKey: string }) {
  return startStandIn(({ req, res, url, body }) => {
    const send = (status: number, data: unknown) => sendJson(res, status, data)
    const tavily = req.headers.authorization !== undefined
    if (req.method === 'POST' && url.pathname === '/search' && tavily) {
      if (req.headers.authorization !== `Bearer ${options.apiKey}`)
        return send(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } })
      if (typeof body?.query !== 'string')
        return send(400, { detail: { error: 'query is required' } })
      const hits = SEARCH_HITS.slice(0, body.max_results ?? 5)
      return send(200, {
        query: body.query,
        results: hits.map((hit) => ({
          title: hit.title,
          url: hit.url,
          content: hit.text,
          score: 0.9,
        })),
        response_time: 0.4,
      })
    }
    if (req.method === 'GET' && url.pathname === '/res/v1/web/search') {
      if (req.headers['x-subscription-token'] !== options.apiKey)
        return send(422, {
          type: 'ErrorResponse',
          error: {
            code: 'SUBSCRIPTION_TOKEN_INVALID',
            detail: 'The provided subscription token is invalid.',
          },
        })
      const hits = SEARCH_HITS.slice(0, Number(url.searchParams.get('count') ?? 20))
      return send(200, {
        query: { original: url.searchParams.get('q') },
        web: {
          results: hits.map((hit) => ({
            title: hit.title,
            url: hit.url,
            description: `<strong>${hit.text}</strong>`,
          })),
        },
      })
    }
    if (req.method === 'POST' && url.pathname === '/search') {
      if (req.headers['x-api-key'] !== options.apiKey)
        return send(403, { message: 'Unauthorized.', statusCode: 403 })
      if (typeof body?.q !== 'string')
        return send(400, { message: 'Missing query', statusCode: 400 })
      const hits = SEARCH_HITS.slice(0, body.num ?? 10)
      return send(200, {
        searchParameters: { q: body.q, type: 'search' },
        organic: hits.map((hit, index) => ({
          title: hit.title,
          link: hit.url,
          snippet: hit.text,
          position: index + 1,
        })),
      })
    }
    return send(404, { message: 'Not found' })
  })
}
