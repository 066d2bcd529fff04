/**
 * The AI providers' log and error messages, in one place so
 * every provider logs and answers the same.
 */
export const AI_ERRORS = {
  noModelSelected: 'No model selected',
  noApiKey: 'No API key provided',
  noModel: 'No model provided',
  apiCall: 'An API call error occured while generating the response',
  unknown: 'An unknown error occured while generating the response',
  streamApiKeyMissing: 'API key missing',
  streamModelNotFound: 'model not found',
  stream: 'An error occured while generating the stream',
  readStream: 'Failed to read response stream',
  textToSpeech: 'An error occured while converting the text to speech',
  classify: 'An error occurred while classifying the text',
  image: 'An error occurred while generating image',
  unsupportedLlm: 'Unsupported LLM specified',
  functionCodeUndefined: 'Function code is undefined',
} as const

/** A provider answered with an error status: its status and body travel with it. */
export class ProviderError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message?: string
  ) {
    super(message ?? providerMessage(body) ?? `The provider answered ${status}`)
    this.name = 'ProviderError'
  }
}

function providerMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body : undefined
  const error = (body as any).error
  if (typeof error === 'string') return error
  if (error && typeof error.message === 'string') return error.message
  if (typeof (body as any).message === 'string') return (body as any).message
  if (typeof (body as any).detail === 'string') return (body as any).detail
  return undefined
}

/** Throws a ProviderError for a non-2xx response (reading its JSON or text body). */
export async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response
  const text = await response.text().catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  throw new ProviderError(response.status, body)
}

/**
 * What a failed chat completion logs: an API error with its details,
 * anything else as the unknown error. The flow goes on.
 */
export function chatErrorLog(error: unknown) {
  if (error instanceof ProviderError) {
    return {
      status: 'error' as const,
      description: AI_ERRORS.apiCall,
      details: { status: error.status, message: error.message, body: error.body },
    }
  }
  return {
    status: 'error' as const,
    description: AI_ERRORS.unknown,
    details: { message: error instanceof Error ? error.message : String(error) },
  }
}

/** The status and message a failed stream answers with. */
export function streamErrorOf(error: unknown, fallback: string = AI_ERRORS.stream) {
  if (error instanceof ProviderError) {
    if (error.status === 401) return { status: 401, message: AI_ERRORS.streamApiKeyMissing }
    // Only a refused model: a 404 of another kind (Dify's unknown conversation) keeps its
    // own status and words.
    if ((error.status === 404 || error.status === 400) && /model/i.test(error.message))
      return { status: 400, message: AI_ERRORS.streamModelNotFound }
    return { status: error.status, message: error.message || fallback }
  }
  return { status: 500, message: fallback }
}
