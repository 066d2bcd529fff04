import { createHash } from 'node:crypto'
import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * A stand-in for an OpenAI-compatible embeddings API (`POST /v1/embeddings`, the shape
 * OpenAI, Mistral and local model servers answer): it checks the bearer key and the body
 * ({ model, input: string | string[] }) as the real service does, and answers
 * `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`.
 *
 * Its vectors stand in for meaning: words are hashed into `dimensions` buckets after the
 * `synonyms` map folds words of one meaning into one (car, automobile, vehicle → car), so a
 * query and a text that share no word can still be close, as with a real model.
 */
export const DEFAULT_SYNONYMS: Record<string, string> = {
  automobile: 'car',
  vehicle: 'car',
  cars: 'car',
  reimbursement: 'refund',
  refunds: 'refund',
  money: 'refund',
  back: 'refund',
  puppy: 'dog',
  canine: 'dog',
}

function bucketOf(word: string, dimensions: number) {
  return createHash('sha1').update(word).digest().readUInt32LE(0) % dimensions
}

export function standInEmbedding(text: string, dimensions = 64, synonyms = DEFAULT_SYNONYMS) {
  const vector = new Array<number>(dimensions).fill(0)
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const word = synonyms[raw] ?? raw
    vector[bucketOf(word, dimensions)] += 1
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1
  return vector.map((value) => value / norm)
}

export async function startEmbeddingsStandIn(options: { apiKey: string; dimensions?: number }) {
  const dimensions = options.dimensions ?? 64
  const state = { fail: null as null | { status: number; body: unknown } }
  const service = await startStandIn(({ req, res, url, body, isJson }) => {
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      })
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/embeddings') {
      return sendJson(res, 404, { error: { message: `Unknown route ${url.pathname}` } })
    }
    if (state.fail) return sendJson(res, state.fail.status, state.fail.body)
    if (!isJson || typeof body.model !== 'string' || body.model === '') {
      return sendJson(res, 400, { error: { message: "'model' is required" } })
    }
    const input: unknown = body.input
    const texts = typeof input === 'string' ? [input] : input
    if (
      !Array.isArray(texts) ||
      texts.length === 0 ||
      texts.some((text) => typeof text !== 'string')
    ) {
      return sendJson(res, 400, {
        error: { message: "'input' must be a string or an array of strings" },
      })
    }
    if (texts.length > 2048) {
      return sendJson(res, 400, { error: { message: "'input' must have at most 2048 items" } })
    }
    const tokens = texts.reduce((sum: number, text: string) => sum + text.split(/\s+/).length, 0)
    sendJson(res, 200, {
      object: 'list',
      model: body.model,
      data: texts.map((text: string, index: number) => ({
        object: 'embedding',
        index,
        embedding: standInEmbedding(text, dimensions),
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    })
  })
  return {
    ...service,
    /** The OpenAI-style base URL the credentials take. */
    apiBaseUrl: `${service.baseUrl}/v1`,
    failWith(status: number | null, body: unknown = { error: { message: 'down' } }) {
      state.fail = status === null ? null : { status, body }
    },
  }
}
