import type { HttpClient, RunnerContext } from '#sdk/plugin'
import { AI_ERRORS, ensureOk, ProviderError } from '#sdk/ai'
import { ELEVENLABS_DEFAULT_BASE_URL } from './index.js'

/** The ElevenLabs REST calls shared by the runner, the fetchers and the credential test. */

export interface ElevenLabsCredentials {
  apiKey?: string
  baseUrl?: string
}

export function baseUrlOf(credentials: ElevenLabsCredentials) {
  return (credentials.baseUrl?.trim() || ELEVENLABS_DEFAULT_BASE_URL).replace(/\/+$/, '')
}

export function headersOf(apiKey: string, extra: Record<string, string> = {}) {
  // The service authenticates with its own header, not a bearer token.
  return { 'xi-api-key': apiKey, ...extra }
}

/**
 * ensureOk, with the service's own error wording: it answers `{ detail: { status, message } }`,
 * which the shared reader does not know.
 */
export async function ensureElevenLabsOk(response: Response) {
  try {
    return await ensureOk(response)
  } catch (error) {
    const message = (error as ProviderError).body as { detail?: { message?: unknown } } | undefined
    if (error instanceof ProviderError && typeof message?.detail?.message === 'string') {
      throw new ProviderError(error.status, error.body, message.detail.message)
    }
    throw error
  }
}

async function getJson<T>(
  http: HttpClient,
  credentials: ElevenLabsCredentials,
  path: string,
  signal?: AbortSignal
): Promise<T> {
  const apiKey = credentials.apiKey?.trim()
  if (!apiKey) throw new Error('No API key provided')
  const response = await http.request(`${baseUrlOf(credentials)}${path}`, {
    headers: headersOf(apiKey, { accept: 'application/json' }),
    signal,
  })
  await ensureElevenLabsOk(response)
  return (await response.json()) as T
}

/** GET /v1/voices: the account's voices (premade, cloned, library). */
export async function listVoices(
  http: HttpClient,
  credentials: ElevenLabsCredentials,
  signal?: AbortSignal
) {
  const body = await getJson<{ voices?: { voice_id?: unknown; name?: unknown }[] }>(
    http,
    credentials,
    '/v1/voices',
    signal
  )
  return (body?.voices ?? [])
    .filter((voice) => typeof voice?.voice_id === 'string')
    .map((voice) => ({
      value: voice.voice_id as string,
      label: typeof voice.name === 'string' ? voice.name : (voice.voice_id as string),
    }))
}

/** GET /v1/models, keeping those that can do text to speech (others are for dubbing etc.). */
export async function listTextToSpeechModels(
  http: HttpClient,
  credentials: ElevenLabsCredentials,
  signal?: AbortSignal
) {
  const body = await getJson<
    { model_id?: unknown; name?: unknown; can_do_text_to_speech?: unknown }[]
  >(http, credentials, '/v1/models', signal)
  return (Array.isArray(body) ? body : [])
    .filter((model) => typeof model?.model_id === 'string' && model.can_do_text_to_speech === true)
    .map((model) => ({
      value: model.model_id as string,
      label: typeof model.name === 'string' ? model.name : (model.model_id as string),
    }))
}

/**
 * POST /v1/text-to-speech/{voiceId} with `text` and `model_id` (left out without a model:
 * the service's default). Returns the MP3 bytes; a refusal, or an answer that is not audio,
 * throws a ProviderError.
 */
export async function textToSpeech(
  http: HttpClient,
  credentials: ElevenLabsCredentials & { apiKey: string },
  request: { voiceId: string; text: string; modelId?: string },
  signal?: AbortSignal
): Promise<Uint8Array> {
  const response = await http.request(
    `${baseUrlOf(credentials)}/v1/text-to-speech/${encodeURIComponent(request.voiceId)}`,
    {
      method: 'POST',
      headers: headersOf(credentials.apiKey, {
        'content-type': 'application/json',
        'accept': 'audio/mpeg',
      }),
      body: JSON.stringify(
        request.modelId ? { text: request.text, model_id: request.modelId } : { text: request.text }
      ),
      // Long texts take a while to synthesise (the run's own signal may end it sooner).
      timeoutMs: 120_000,
      signal,
    }
  )
  await ensureElevenLabsOk(response)
  const type = response.headers.get('content-type') ?? ''
  if (!type.startsWith('audio/')) {
    throw new ProviderError(response.status, await response.text(), `Expected audio, got ${type}`)
  }
  const audio = new Uint8Array(await response.arrayBuffer())
  if (audio.byteLength === 0) throw new ProviderError(response.status, '', 'Empty audio')
  return audio
}

export function errorDetailsOf(error: unknown) {
  return error instanceof ProviderError
    ? { status: error.status, message: error.message, body: error.body }
    : { message: error instanceof Error ? error.message : String(error) }
}

/**
 * The whole "text to speech" step shared by the bot block and the workflow node: the
 * checks (voice, text, then the save variable), the credit check, the call, the usage row and the stored MP3.
 * Returns the MP3's public URL, or undefined after logging why there is none.
 */
export async function speakToStoredMp3(
  context: Pick<RunnerContext, 'logger' | 'http' | 'storage' | 'ai' | 'signal'> & {
    credentials: ElevenLabsCredentials
  },
  input: { voiceId?: string; text?: string; modelId?: string },
  /** Checked last, after voice and text (the bot block's save variable). */
  extraCheck?: () => string | undefined
): Promise<string | undefined> {
  const { logger, http, storage, ai, signal, credentials } = context
  const voiceId = input.voiceId?.trim()
  if (!voiceId) return void logger.error('Voice ID is missing')
  const text = input.text ?? ''
  if (!text.trim()) return void logger.error('Text is missing')
  const problem = extraCheck?.()
  if (problem) return void logger.error(problem)
  const apiKey = String(credentials.apiKey ?? '').trim()
  if (!apiKey) return void logger.error(AI_ERRORS.noApiKey)
  const modelId = input.modelId?.trim() || undefined

  // Outside the try: an owner without credits is reported by the engine, not as an API error.
  await ai.ensureCredits()
  let audio: Uint8Array
  try {
    audio = await textToSpeech(http, { ...credentials, apiKey }, { voiceId, text, modelId }, signal)
  } catch (error) {
    return void logger.error(AI_ERRORS.textToSpeech, errorDetailsOf(error))
  }
  // The service counts characters, not tokens: the call is recorded with 0 tokens under
  // its model id (see README), so it shows in the usage table.
  await ai.recordUsage({ model: modelId, inputTokens: 0, outputTokens: 0 })
  try {
    return await storage.put(audio, { type: 'audio/mpeg', name: 'speech.mp3' })
  } catch (error) {
    return void logger.error(AI_ERRORS.textToSpeech, errorDetailsOf(error))
  }
}
