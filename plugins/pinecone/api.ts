import type { HttpClient } from '#sdk/plugin'

/**
 * A small client of Pinecone's REST API, shared by the Pinecone block and the vector store
 * backend knowledge stores kept in Pinecone use (vector_store.ts) (list indexes, describe stats,
 * namespaces, search records with `chunk_text`; hosted inference for embeddings). Every call
 * goes through the HTTP client it is given (the guarded one), with the `Api-Key` header and
 * the API version records and inference need.
 *
 * - Control plane (`baseUrl`, default https://api.pinecone.io): GET /indexes, GET
 *   /indexes/{name}, POST /embed.
 * - Data plane (an index's `host`): GET /describe_index_stats, POST
 *   /records/namespaces/{ns}/search, POST /records/namespaces/{ns}/upsert (NDJSON),
 *   POST /vectors/delete.
 */

export const PINECONE_CONTROL_PLANE_URL = 'https://api.pinecone.io'
export const PINECONE_API_VERSION = '2025-01'
/** Pinecone's hosted embedding model (the default embedding). */
export const PINECONE_EMBED_MODEL = 'llama-text-embed-v2'
/** The field integrated indexes embed and the Pinecone block reads. */
export const CHUNK_TEXT_FIELD = 'chunk_text'
export interface PineconeAccount {
  apiKey: string
  /** The control plane; empty means PINECONE_CONTROL_PLANE_URL. */
  baseUrl?: string
}

export interface PineconeIndex {
  name: string
  host: string
  dimension?: number
  metric?: string
  /** Set for integrated indexes (Pinecone embeds `chunk_text` itself). */
  embed?: { model?: string; field_map?: Record<string, string> }
}

export interface PineconeHit {
  id: string
  score: number
  fields: Record<string, unknown>
}

export class PineconeError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
    this.name = 'PineconeError'
  }
}

export function pineconeAccountOf(
  credentials: Record<string, unknown> | undefined
): PineconeAccount {
  return {
    apiKey: String(credentials?.apiKey ?? '').trim(),
    baseUrl: String(credentials?.baseUrl ?? '').trim() || undefined,
  }
}

const controlUrl = (account: PineconeAccount, path: string) =>
  `${(account.baseUrl || PINECONE_CONTROL_PLANE_URL).replace(/\/+$/, '')}/${path}`

/** Pinecone gives hosts without a scheme; https is theirs. */
export const hostUrl = (host: string, path: string) =>
  `${/^https?:\/\//.test(host) ? host : `https://${host}`}`.replace(/\/+$/, '') + `/${path}`

function headers(account: PineconeAccount, contentType?: string): Record<string, string> {
  if (!account.apiKey) throw new PineconeError(401, 'Pinecone: the API key is missing')
  return {
    'Api-Key': account.apiKey,
    'X-Pinecone-API-Version': PINECONE_API_VERSION,
    'accept': 'application/json',
    ...(contentType ? { 'content-type': contentType } : {}),
  }
}

async function call<T>(
  http: HttpClient,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }
): Promise<T> {
  const response = await http.request(url, { ...init, timeoutMs: 30_000 })
  const text = await response.text()
  let body: any
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = text
  }
  if (!response.ok) {
    const message =
      (typeof body?.error?.message === 'string' && body.error.message) ||
      (typeof body?.message === 'string' && body.message) ||
      (typeof body === 'string' && body) ||
      response.statusText
    throw new PineconeError(
      response.status,
      `Pinecone answered ${response.status}: ${message}`.trim()
    )
  }
  return body as T
}

export async function listIndexes(
  http: HttpClient,
  account: PineconeAccount,
  signal?: AbortSignal
) {
  const body = await call<{ indexes?: PineconeIndex[] }>(http, controlUrl(account, 'indexes'), {
    headers: headers(account),
    signal,
  })
  return (body?.indexes ?? []).filter((index) => typeof index?.name === 'string')
}

/** The host of an index, read from the index list (Pinecone's describe-index call). */
export async function indexHost(
  http: HttpClient,
  account: PineconeAccount,
  indexName: string,
  signal?: AbortSignal
): Promise<string> {
  const index = (await listIndexes(http, account, signal)).find((item) => item.name === indexName)
  if (!index?.host) throw new PineconeError(404, `Pinecone: there is no index named "${indexName}"`)
  return index.host
}

export async function describeIndexStats(
  http: HttpClient,
  account: PineconeAccount,
  host: string,
  signal?: AbortSignal
) {
  return call<{
    namespaces?: Record<string, { vectorCount?: number }>
    dimension?: number
    totalVectorCount?: number
  }>(http, hostUrl(host, 'describe_index_stats'), { headers: headers(account), signal })
}

/** The namespaces of an index and their record counts (from describe_index_stats). */
export async function listNamespaces(
  http: HttpClient,
  account: PineconeAccount,
  host: string,
  signal?: AbortSignal
) {
  const stats = await describeIndexStats(http, account, host, signal)
  return Object.entries(stats?.namespaces ?? {}).map(([name, info]) => ({
    name,
    recordCount: info?.vectorCount ?? 0,
  }))
}

/**
 * Searches the records of an integrated index by text (Pinecone embeds the query), best
 * first. `fields` are the record fields returned (default `chunk_text`).
 */
export async function searchRecords(
  http: HttpClient,
  account: PineconeAccount,
  input: {
    host: string
    namespace: string
    text: string
    topK: number
    fields?: string[]
    /** Told the tokens Pinecone embedded for the query (`usage.embed_total_tokens`). */
    onUsage?: (tokens: number) => void
  },
  signal?: AbortSignal
): Promise<PineconeHit[]> {
  const namespace = input.namespace || '__default__'
  const body = await call<{
    result?: { hits?: { _id: string; _score: number; fields?: Record<string, unknown> }[] }
    usage?: { embed_total_tokens?: number }
  }>(http, hostUrl(input.host, `records/namespaces/${encodeURIComponent(namespace)}/search`), {
    method: 'POST',
    headers: headers(account, 'application/json'),
    body: JSON.stringify({
      query: { inputs: { text: input.text }, top_k: input.topK },
      fields: input.fields ?? [CHUNK_TEXT_FIELD],
    }),
    signal,
  })
  const tokens = body?.usage?.embed_total_tokens
  if (typeof tokens === 'number' && Number.isFinite(tokens)) input.onUsage?.(tokens)
  return (body?.result?.hits ?? []).map((hit) => ({
    id: hit._id,
    score: hit._score,
    fields: hit.fields ?? {},
  }))
}

/**
 * Adds or replaces records of an integrated index: each has an `id`, its `chunk_text` and
 * other flat fields (Pinecone's limit: 96 records per request, sent in batches here).
 */
export async function upsertRecords(
  http: HttpClient,
  account: PineconeAccount,
  input: {
    host: string
    namespace: string
    records: ({ id: string; chunk_text: string } & Record<string, unknown>)[]
  },
  signal?: AbortSignal
) {
  const namespace = input.namespace || '__default__'
  for (let start = 0; start < input.records.length; start += 96) {
    const batch = input.records.slice(start, start + 96)
    await call(
      http,
      hostUrl(input.host, `records/namespaces/${encodeURIComponent(namespace)}/upsert`),
      {
        method: 'POST',
        headers: headers(account, 'application/x-ndjson'),
        body: batch.map(({ id, ...fields }) => JSON.stringify({ _id: id, ...fields })).join('\n'),
        signal,
      }
    )
  }
}

/**
 * The ids of a namespace's records starting with `prefix` (GET /vectors/list, serverless
 * indexes), every page read: how a knowledge store finds a source's records to delete them.
 */
export async function listRecordIds(
  http: HttpClient,
  account: PineconeAccount,
  input: { host: string; namespace: string; prefix: string },
  signal?: AbortSignal
): Promise<string[]> {
  const ids: string[] = []
  let token: string | undefined
  do {
    const query = new URLSearchParams({
      namespace: input.namespace || '__default__',
      prefix: input.prefix,
      limit: '100',
    })
    if (token) query.set('paginationToken', token)
    const body = await call<{
      vectors?: { id?: string }[]
      pagination?: { next?: string }
    }>(http, hostUrl(input.host, `vectors/list?${query}`), { headers: headers(account), signal })
    for (const vector of body?.vectors ?? [])
      if (typeof vector?.id === 'string') ids.push(vector.id)
    token = body?.pagination?.next || undefined
  } while (token)
  return ids
}

/** Deletes records by id (or the whole namespace with `all`). */
export async function deleteRecords(
  http: HttpClient,
  account: PineconeAccount,
  input: { host: string; namespace: string; ids?: string[]; all?: boolean },
  signal?: AbortSignal
) {
  if (!input.all && (input.ids ?? []).length > 1000) {
    // Pinecone deletes at most 1000 ids per request.
    for (let start = 0; start < input.ids!.length; start += 1000) {
      await deleteRecords(
        http,
        account,
        { ...input, ids: input.ids!.slice(start, start + 1000) },
        signal
      )
    }
    return
  }
  await call(http, hostUrl(input.host, 'vectors/delete'), {
    method: 'POST',
    headers: headers(account, 'application/json'),
    body: JSON.stringify({
      namespace: input.namespace || '__default__',
      ...(input.all ? { deleteAll: true } : { ids: input.ids ?? [] }),
    }),
    signal,
  })
}

/**
 * Embeddings from Pinecone's hosted inference (default `llama-text-embed-v2`): `passage` for
 * what is stored, `query` for what is searched. Returns one vector per text, in order.
 */
export async function embedTexts(
  http: HttpClient,
  account: PineconeAccount,
  input: { texts: string[]; inputType: 'passage' | 'query'; model?: string; dimension?: number },
  signal?: AbortSignal
): Promise<{ vectors: number[][]; totalTokens: number }> {
  const vectors: number[][] = []
  let totalTokens = 0
  // Pinecone takes at most 96 inputs per request for this model.
  for (let start = 0; start < input.texts.length; start += 96) {
    const batch = input.texts.slice(start, start + 96)
    const body = await call<{ data?: { values?: number[] }[]; usage?: { total_tokens?: number } }>(
      http,
      controlUrl({ apiKey: account.apiKey, baseUrl: account.baseUrl }, 'embed'),
      {
        method: 'POST',
        headers: headers(account, 'application/json'),
        body: JSON.stringify({
          model: input.model ?? PINECONE_EMBED_MODEL,
          parameters: {
            input_type: input.inputType,
            truncate: 'END',
            ...(input.dimension ? { dimension: input.dimension } : {}),
          },
          inputs: batch.map((text) => ({ text })),
        }),
        signal,
      }
    )
    const data = body?.data ?? []
    if (data.length !== batch.length || data.some((item) => !Array.isArray(item?.values))) {
      throw new PineconeError(502, 'Pinecone: the embedding answer does not match the inputs')
    }
    vectors.push(...data.map((item) => item.values!))
    totalTokens += body?.usage?.total_tokens ?? 0
  }
  return { vectors, totalTokens }
}
