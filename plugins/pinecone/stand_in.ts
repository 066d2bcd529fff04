import { startStandIn, sendJson, recordText, type TextStandInRequest } from '#sdk/testing'

/**
 * A local stand-in for Pinecone: the control plane (GET /indexes, GET /indexes/{name},
 * POST /embed) and the data plane of each index, served under `/idx/{name}` of the same
 * server (the `host` the index list gives): GET /describe_index_stats, POST
 * /records/namespaces/{ns}/search, POST /records/namespaces/{ns}/upsert (NDJSON), GET
 * /vectors/list (ids by prefix, paged by `paginationToken`) and POST /vectors/delete.
 * Indexes named in `plainIndexes` have no integrated embedding (no `embed` in their
 * description), as an index made for vectors only. It checks the Api-Key and X-Pinecone-API-Version headers and keeps
 * records in memory. Its "embedding" is a bag of words: a search scores records by the
 * share of the query's words they hold, so tests can predict the ranking.
 */

export interface PineconeRecord {
  _id: string
  chunk_text: string
  [field: string]: unknown
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? [])

function scoreOf(query: string, text: string) {
  const asked = words(query)
  if (asked.size === 0) return 0
  const held = words(text)
  let shared = 0
  for (const word of asked) if (held.has(word)) shared++
  return Math.round((shared / asked.size) * 1000) / 1000
}

/** A deterministic vector of `dimension` numbers for a text (letter counts, normalised). */
export function standInVector(text: string, dimension = 8): number[] {
  const vector = new Array(dimension).fill(0)
  for (const char of text.toLowerCase()) {
    const code = char.charCodeAt(0)
    if (code >= 97 && code <= 122) vector[(code - 97) % dimension] += 1
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1
  return vector.map((value) => Math.round((value / norm) * 1e6) / 1e6)
}

export async function startPineconeStandIn(options: {
  apiKey: string
  indexes?: string[]
  plainIndexes?: string[]
}) {
  const plain = new Set(options.plainIndexes ?? [])
  let apiKey = options.apiKey
  /** index name -> namespace -> records */
  const data = new Map<string, Map<string, PineconeRecord[]>>()
  for (const name of [...(options.indexes ?? ['docs']), ...plain]) data.set(name, new Map())
  let baseUrl = ''

  const standIn = await startStandIn<TextStandInRequest>(
    ({ req, res, url, text, recorded }) => {
      const send = (status: number, body: unknown) => sendJson(res, status, body)
      if (req.headers['api-key'] !== apiKey) {
        return send(401, {
          error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' },
          status: 401,
        })
      }
      if (!req.headers['x-pinecone-api-version']) {
        return send(400, {
          error: { code: 'INVALID_ARGUMENT', message: 'X-Pinecone-API-Version is required' },
          status: 400,
        })
      }
      try {
        recorded.json = text && !url.pathname.endsWith('/upsert') ? JSON.parse(text) : undefined
      } catch {
        return send(400, {
          error: { code: 'INVALID_ARGUMENT', message: 'Invalid JSON' },
          status: 400,
        })
      }
      const body = recorded.json
      const describe = (name: string) => ({
        name,
        host: `${baseUrl}/idx/${name}`,
        dimension: 1024,
        metric: 'cosine',
        status: { ready: true, state: 'Ready' },
        ...(plain.has(name)
          ? {}
          : { embed: { model: 'llama-text-embed-v2', field_map: { text: 'chunk_text' } } }),
      })

      // Control plane
      if (req.method === 'GET' && url.pathname === '/indexes') {
        return send(200, { indexes: [...data.keys()].map(describe) })
      }
      const indexMatch = /^\/indexes\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && indexMatch) {
        const name = decodeURIComponent(indexMatch[1])
        return data.has(name)
          ? send(200, describe(name))
          : send(404, {
              error: { code: 'NOT_FOUND', message: `Resource ${name} not found` },
              status: 404,
            })
      }
      if (req.method === 'POST' && url.pathname === '/embed') {
        if (body?.model !== 'llama-text-embed-v2')
          return send(400, {
            error: { code: 'INVALID_ARGUMENT', message: `Model ${body?.model} not found` },
            status: 400,
          })
        if (!['passage', 'query'].includes(body?.parameters?.input_type))
          return send(400, {
            error: { code: 'INVALID_ARGUMENT', message: 'input_type is required' },
            status: 400,
          })
        const inputs: { text: string }[] = body.inputs ?? []
        if (inputs.length > 96)
          return send(400, {
            error: { code: 'INVALID_ARGUMENT', message: 'Too many inputs' },
            status: 400,
          })
        return send(200, {
          model: 'llama-text-embed-v2',
          vector_type: 'dense',
          data: inputs.map((input) => ({
            vector_type: 'dense',
            values: standInVector(input.text, body.parameters.dimension ?? 8),
          })),
          usage: { total_tokens: inputs.reduce((sum, input) => sum + words(input.text).size, 0) },
        })
      }

      // Data plane: /idx/{name}/...
      const dataMatch = /^\/idx\/([^/]+)\/(.*)$/.exec(url.pathname)
      const namespaces = dataMatch ? data.get(decodeURIComponent(dataMatch[1])) : undefined
      if (!dataMatch || !namespaces)
        return send(404, { error: { code: 'NOT_FOUND', message: 'Not found' }, status: 404 })
      const path = dataMatch[2]
      if (path === 'describe_index_stats') {
        const entries = [...namespaces.entries()].filter(([, records]) => records.length > 0)
        return send(200, {
          namespaces: Object.fromEntries(
            entries.map(([name, records]) => [name, { vectorCount: records.length }])
          ),
          dimension: 1024,
          indexFullness: 0,
          totalVectorCount: entries.reduce((sum, [, records]) => sum + records.length, 0),
        })
      }
      const recordsMatch = /^records\/namespaces\/([^/]+)\/(search|upsert)$/.exec(path)
      if (req.method === 'POST' && recordsMatch) {
        const namespace = decodeURIComponent(recordsMatch[1])
        if (recordsMatch[2] === 'upsert') {
          if (req.headers['content-type'] !== 'application/x-ndjson')
            return send(400, {
              error: { code: 'INVALID_ARGUMENT', message: 'Expected application/x-ndjson' },
              status: 400,
            })
          const lines = text
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as PineconeRecord)
          if (
            lines.length > 96 ||
            lines.some((record) => !record._id || typeof record.chunk_text !== 'string')
          )
            return send(400, {
              error: { code: 'INVALID_ARGUMENT', message: 'Each record needs _id and chunk_text' },
              status: 400,
            })
          const stored = namespaces.get(namespace) ?? []
          for (const record of lines) {
            const at = stored.findIndex((existing) => existing._id === record._id)
            if (at >= 0) stored[at] = record
            else stored.push(record)
          }
          namespaces.set(namespace, stored)
          res.writeHead(201)
          return res.end()
        }
        const query = body?.query
        if (typeof query?.inputs?.text !== 'string' || !Number.isInteger(query?.top_k))
          return send(400, {
            error: {
              code: 'INVALID_ARGUMENT',
              message: 'query.inputs.text and query.top_k are required',
            },
            status: 400,
          })
        const fields: string[] | undefined = body.fields
        const hits = (namespaces.get(namespace) ?? [])
          .map((record) => ({ record, score: scoreOf(query.inputs.text, record.chunk_text) }))
          .filter((hit) => hit.score > 0)
          .sort((a, b) => b.score - a.score || a.record._id.localeCompare(b.record._id))
          .slice(0, query.top_k)
          .map(({ record, score }) => {
            const { _id: id, ...all } = record
            const picked = fields
              ? Object.fromEntries(
                  fields.filter((name) => name in all).map((name) => [name, all[name]])
                )
              : all
            return { _id: id, _score: score, fields: picked }
          })
        return send(200, {
          result: { hits },
          usage: { read_units: 1, embed_total_tokens: words(query.inputs.text).size },
        })
      }
      if (req.method === 'GET' && path === 'vectors/list') {
        // Ids in sorted order, `limit` per page (100 by default), as serverless indexes do.
        const namespace = url.searchParams.get('namespace') ?? '__default__'
        const prefix = url.searchParams.get('prefix') ?? ''
        const limit = Number(url.searchParams.get('limit') ?? 100)
        const after = url.searchParams.get('paginationToken')
        const ids = (namespaces.get(namespace) ?? [])
          .map((record) => record._id)
          .filter((id) => id.startsWith(prefix))
          .sort()
        const from = after ? ids.findIndex((id) => id > Buffer.from(after, 'base64').toString()) : 0
        const page = from < 0 ? [] : ids.slice(from, from + limit)
        const more = from >= 0 && from + limit < ids.length
        return send(200, {
          vectors: page.map((id) => ({ id })),
          ...(more
            ? { pagination: { next: Buffer.from(page[page.length - 1]).toString('base64') } }
            : {}),
          namespace,
          usage: { readUnits: 1 },
        })
      }
      if (req.method === 'POST' && path === 'vectors/delete') {
        const namespace = body?.namespace ?? '__default__'
        if (body?.deleteAll) namespaces.delete(namespace)
        else
          namespaces.set(
            namespace,
            (namespaces.get(namespace) ?? []).filter(
              (record) => !(body?.ids ?? []).includes(record._id)
            )
          )
        return send(200, {})
      }
      return send(404, { error: { code: 'NOT_FOUND', message: 'Not found' }, status: 404 })
    },
    { record: recordText }
  )
  baseUrl = standIn.baseUrl
  return {
    ...standIn,
    /** Records put straight into an index's namespace (what a test starts from). */
    seed(index: string, namespace: string, records: PineconeRecord[]) {
      if (!data.has(index)) data.set(index, new Map())
      data.get(index)!.set(namespace, [...(data.get(index)!.get(namespace) ?? []), ...records])
    },
    recordsOf: (index: string, namespace: string) => data.get(index)?.get(namespace) ?? [],
    /** The key the account accepts from now on (a key revoked in Pinecone's console). */
    setApiKey(key: string) {
      apiKey = key
    },
  }
}
