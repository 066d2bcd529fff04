import type { HttpClient, Runner, VariableValue } from '#sdk/plugin'
import {
  AI_ERRORS,
  type ChatCompletion,
  chatErrorLog,
  type ChatMessage,
  createChatCompletion,
} from '#sdk/ai'
import { VISION_DEFAULT_BASE_URL, VISION_DEFAULT_MODEL } from './index.js'
import type plugin from './index.js'

/**
 * How it works (see README): the image is read by us and sent inline (a data URL in an
 * `image_url` part), with the builder's instructions, to an OpenAI-compatible chat
 * completion that must answer one JSON object keyed by the mapped variables' names. Each
 * mapped variable gets the value under its name.
 */

/** Vision APIs take images up to about 20 MB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024

class ImageReadError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>
  ) {
    super(message)
  }
}

/**
 * Read here rather than passed as a link: the model's servers cannot reach files stored on
 * a private or local installation, and we can refuse what is not an image before paying.
 */
async function imageAsDataUrl(http: HttpClient, url: string, signal: AbortSignal) {
  // Already inline (a variable holding a data URL): sent as it is.
  if (/^data:image\/[a-z0-9.+-]+;base64,/i.test(url)) return url
  let response: Response
  try {
    response = await http.request(url, { timeoutMs: 30_000, signal })
  } catch (error) {
    throw new ImageReadError('Vision Bot: the image could not be read', {
      url,
      message: (error as Error).message,
    })
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (!response.ok || !type.startsWith('image/')) {
    await response.body?.cancel().catch(() => {})
    throw new ImageReadError('Vision Bot: the URL does not point to an image', {
      url,
      status: response.status,
      contentType: type,
    })
  }
  // The announced size spares downloading a file that would be refused anyway.
  const announced = Number(response.headers.get('content-length'))
  if (announced > MAX_IMAGE_BYTES) {
    await response.body?.cancel().catch(() => {})
    throw new ImageReadError('Vision Bot: the image is larger than 20 MB', { url, size: announced })
  }
  const bytes = Buffer.from(await response.arrayBuffer())
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    throw new ImageReadError('Vision Bot: the image is larger than 20 MB', {
      url,
      size: bytes.byteLength,
    })
  }
  return `data:${type};base64,${bytes.toString('base64')}`
}

export function instructionsFor(names: string[]) {
  return [
    'You look at the image the user sends and follow their instructions.',
    'Answer with one JSON object and nothing else, without code fences.',
    `Its keys are exactly these names: ${JSON.stringify(names)}`,
    'Give each key the value the instructions ask for, as text (a number or true/false when it is one).',
    'Use an empty string when the image does not tell.',
  ].join('\n')
}

/** The answer's JSON object; models sometimes wrap it in a code fence anyway. */
function parseAnswer(content: string): Record<string, unknown> | undefined {
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '')
  try {
    const parsed = JSON.parse(unfenced)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

function toVariableValue(value: unknown): VariableValue {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value
  return JSON.stringify(value)
}

export const run: Runner<typeof plugin> = async ({
  options,
  credentials,
  variables,
  logger,
  http,
  ai,
  signal,
}) => {
  const image = options.image?.trim()
  if (!image) {
    logger.error('Image URL is missing')
    return
  }
  const text = options.text ?? ''
  if (!text.trim()) {
    logger.error('Text is missing')
    return
  }
  const apiKey = credentials.apiKey?.trim()
  if (!apiKey) {
    logger.error(AI_ERRORS.noApiKey)
    return
  }
  const known = variables.list()
  const targets = (options.responseMapping ?? [])
    .map((entry) => known.find((variable) => variable.id === entry.variableId))
    .filter((variable): variable is NonNullable<typeof variable> => Boolean(variable))
  if (targets.length === 0) {
    // Nothing would keep the answer: no call, no credits spent.
    logger.info('Vision Bot: no variable is mapped, the image was not sent')
    return
  }
  const names = [...new Set(targets.map((variable) => variable.name))]

  let dataUrl: string
  try {
    dataUrl = await imageAsDataUrl(http, image, signal)
  } catch (error) {
    const failure = error as ImageReadError
    logger.error(failure.message, failure.details)
    return
  }

  const model = credentials.model?.trim() || VISION_DEFAULT_MODEL
  const messages: ChatMessage[] = [
    { role: 'system', content: instructionsFor(names) },
    {
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: dataUrl } },
      ],
    },
  ]
  // Outside the try: an owner without credits is reported by the engine, not as an API error.
  await ai.ensureCredits()
  let completion: ChatCompletion
  try {
    completion = await createChatCompletion(
      http,
      { baseUrl: credentials.baseUrl?.trim() || VISION_DEFAULT_BASE_URL, apiKey },
      { model, messages, temperature: 0, response_format: { type: 'json_object' } },
      signal
    )
  } catch (error) {
    const entry = chatErrorLog(error)
    logger.error(entry.description, entry.details)
    return
  }
  // Priced under the model the builder chose: price rows use those names, while servers
  // often answer a dated variant (gpt-4o-mini-2024-07-18).
  await ai.recordUsage({
    model,
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
  })
  const answer = completion.choices[0].message.content
  const content = typeof answer === 'string' ? answer : ''

  const parsed = parseAnswer(content)
  if (!parsed) {
    // With one variable, a plain answer is still the answer the builder wants.
    if (names.length === 1 && content.trim()) {
      for (const target of targets) variables.set(target.id, content.trim())
      return
    }
    logger.error('Vision Bot: the answer is not the JSON object that was asked for', { content })
    return
  }
  for (const target of targets) {
    const value = toVariableValue(parsed[target.name])
    if (value === undefined) {
      logger.info(`Vision Bot: the answer has no value for ${target.name}`)
      continue
    }
    variables.set(target.id, value)
  }
}
