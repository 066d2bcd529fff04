import type { Runner } from '#sdk/plugin'
import { AI_ERRORS, ensureOk, ProviderError } from '#sdk/ai'
import { modelUrl } from './api.js'
import type plugin from './index.js'

/**
 * POST {baseUrl}/models/{modelId} with `{ inputs: text }`. What comes back depends on the
 * model's task: JSON (generated text, labels and scores, a summary...) is saved as text,
 * the `generated_text` alone when the answer has one; an image (text to image) is stored
 * and its public URL saved.
 */

/** The image format of the bytes, read from their signature rather than trusted. */
function imageTypeOf(bytes: Uint8Array): { type: string; extension: string } | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))
    return { type: 'image/png', extension: 'png' }
  if (starts(0xff, 0xd8, 0xff)) return { type: 'image/jpeg', extension: 'jpg' }
  if (starts(0x47, 0x49, 0x46, 0x38)) return { type: 'image/gif', extension: 'gif' }
  const tag = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4))
  if (tag(0) === 'RIFF' && tag(8) === 'WEBP') return { type: 'image/webp', extension: 'webp' }
  return undefined
}

/** Text generation answers [{generated_text}] (or the object alone): that text is the result. */
function generatedTextOf(body: unknown): string | undefined {
  const first = Array.isArray(body) ? body[0] : body
  const text = first && typeof first === 'object' ? (first as any).generated_text : undefined
  return typeof text === 'string' ? text : undefined
}

function detailsOf(error: unknown) {
  return error instanceof ProviderError
    ? { status: error.status, message: error.message, body: error.body }
    : { message: error instanceof Error ? error.message : String(error) }
}

type Outcome = { kind: 'text'; text: string } | { kind: 'image'; bytes: Uint8Array }

export const run: Runner<typeof plugin> = async ({
  options,
  credentials,
  variables,
  logger,
  http,
  storage,
  ai,
  signal,
}) => {
  // Model, text and save variable are required.
  const modelId = options.modelId?.trim()
  if (!modelId) {
    logger.error('Model ID is missing')
    return
  }
  const text = options.text ?? ''
  if (!text.trim()) {
    logger.error('Text is missing')
    return
  }
  if (!options.saveResultInVariableId) {
    logger.error('Save variable is missing')
    return
  }
  const apiKey = credentials.apiKey?.trim()
  if (!apiKey) {
    logger.error(AI_ERRORS.noApiKey)
    return
  }

  // Outside the try: an owner without credits is reported by the engine, not as an API error.
  await ai.ensureCredits()
  let outcome: Outcome
  try {
    const response = await http.request(modelUrl(credentials, modelId), {
      method: 'POST',
      headers: {
        'authorization': `Bearer ${apiKey}`,
        'content-type': 'application/json',
        // A cold model answers 503 while it loads; this asks the service to wait instead.
        'x-wait-for-model': 'true',
      },
      body: JSON.stringify({ inputs: text }),
      // Loading a cold model and generating an image take a while (the run's own signal,
      // 60 s by default, may still end it sooner).
      timeoutMs: 180_000,
      signal,
    })
    await ensureOk(response)
    const type = response.headers.get('content-type') ?? ''
    if (type.startsWith('image/')) {
      outcome = { kind: 'image', bytes: new Uint8Array(await response.arrayBuffer()) }
    } else {
      const raw = await response.text()
      let body: unknown = raw
      try {
        body = JSON.parse(raw)
      } catch {
        // Some models answer plain text: it is the result as it is.
      }
      const generated = generatedTextOf(body)
      outcome = {
        kind: 'text',
        text: generated ?? (typeof body === 'string' ? body : JSON.stringify(body)),
      }
    }
  } catch (error) {
    logger.error(AI_ERRORS.classify, detailsOf(error))
    return
  }
  // The inference API reports no token counts: 0 tokens under the model id (see README).
  await ai.recordUsage({ model: modelId, inputTokens: 0, outputTokens: 0 })

  if (outcome.kind === 'text') {
    variables.set(options.saveResultInVariableId, outcome.text)
    return
  }
  const image = imageTypeOf(outcome.bytes)
  if (!image) {
    logger.error(AI_ERRORS.image, { message: 'The service answered bytes that are no image' })
    return
  }
  try {
    const url = await storage.put(outcome.bytes, {
      type: image.type,
      name: `result.${image.extension}`,
    })
    variables.set(options.saveResultInVariableId, url)
  } catch (error) {
    logger.error(AI_ERRORS.image, detailsOf(error))
  }
}
