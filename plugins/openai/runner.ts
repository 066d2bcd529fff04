import type { Runner, RunnerContext } from '#sdk/plugin'
import {
  AI_ERRORS,
  chatCompletionRunner,
  chatCompletionStreamer,
  chatErrorLog,
  chatModelFactory,
  type ChatModelFactory,
  type ChatProvider,
  endpointHeaders,
  endpointUrl,
  ensureOk,
  estimateTokens,
  isOpenAiVisionModel,
  modelNodeAlone,
  modelsFetcher,
  knowledgeStoresFetcher,
  type OpenAiEndpoint,
  openAiCompatibleEmbeddings,
  type EmbeddingProvider,
} from '#sdk/ai'
import { OPENAI_DEFAULT_BASE_URL, OPENAI_VOICES } from './index.js'
import type plugin from './index.js'

/**
 * OpenAI and any OpenAI-compatible server (the credential's baseUrl; apiVersion for
 * Azure-style endpoints). Chat completions share `chatCompletionModule` of `#sdk/ai`
 * with the other compatible providers; speech, transcription and images are OpenAI's own.
 */

export const provider: ChatProvider = {
  endpoint: (credentials) => ({
    baseUrl: String(credentials.baseUrl || OPENAI_DEFAULT_BASE_URL),
    apiKey: String(credentials.apiKey ?? ''),
    apiVersion: credentials.apiVersion ? String(credentials.apiVersion) : undefined,
  }),
  defaultTemperature: 1,
  isVisionModel: isOpenAiVisionModel,
}

/** The speech model when none is set. */
export const DEFAULT_SPEECH_MODEL = 'tts-1'
export const TRANSCRIPTION_MODEL = 'whisper-1'
/** 256 and 512 squares exist only on this model, so images always use it. */
export const IMAGE_MODEL = 'dall-e-2'

type Ctx<A extends string> = Parameters<Runner<typeof plugin, A>>[0]

function endpointOf(context: RunnerContext<any, any>): OpenAiEndpoint {
  return provider.endpoint(context.credentials ?? {})
}

/** Credit errors stop the block as they are; provider failures are logged instead. */
function isCreditError(error: unknown) {
  return (
    error instanceof Error &&
    (error.name === 'AiCreditLimitExceededError' || error.name === 'AiAccountNotFoundError')
  )
}

function errorDetails(error: unknown) {
  const details: Record<string, unknown> = {
    message: error instanceof Error ? error.message : String(error),
  }
  if (error && typeof error === 'object' && 'status' in error) {
    details.status = (error as { status: unknown }).status
    details.body = (error as { body?: unknown }).body
  }
  return details
}

/**
 * Create speech: POST /audio/speech; the mp3 is stored and its public URL saved.
 * Credits: speech is priced by characters, so the input is recorded as estimated input
 * tokens (about four characters each) and no output tokens, under the speech model.
 */
async function createSpeech(context: Ctx<'Create speech'>) {
  const { options, logger, variables, http, storage, ai, signal } = context
  const endpoint = endpointOf(context)
  if (!endpoint.apiKey) return void logger.error(AI_ERRORS.noApiKey)
  const input = options.input?.trim()
  if (!input) return void logger.error('Create speech input is empty')
  const voice = options.voice
  if (!voice || !(OPENAI_VOICES as readonly string[]).includes(voice))
    return void logger.error('Create speech voice is empty')
  if (!options.saveUrlInVariableId) return void logger.error('Create speech save variable is empty')
  const model = options.model?.trim() || DEFAULT_SPEECH_MODEL
  await ai.ensureCredits()
  try {
    const response = await http.request(endpointUrl(endpoint, 'audio/speech'), {
      method: 'POST',
      headers: endpointHeaders(endpoint),
      body: JSON.stringify({ model, input, voice, response_format: 'mp3' }),
      timeoutMs: 120_000,
      signal,
    })
    await ensureOk(response)
    const audio = new Uint8Array(await response.arrayBuffer())
    await ai.recordUsage({ model, inputTokens: estimateTokens(input), outputTokens: 0 })
    const url = await storage.put(audio, { type: 'audio/mpeg', name: 'speech.mp3' })
    variables.set(options.saveUrlInVariableId, url)
  } catch (error) {
    if (isCreditError(error)) throw error
    logger.error(AI_ERRORS.textToSpeech, errorDetails(error))
  }
}

/** A file name for the upload: the URL's last segment, else one matching its type. */
function audioFileName(url: string, type: string) {
  const last = new URL(url).pathname.split('/').pop() ?? ''
  if (/\.[a-z0-9]{2,5}$/i.test(last)) return last
  const extension = type.split('/')[1]?.split(';')[0]?.replace('mpeg', 'mp3') || 'mp3'
  return `audio.${extension}`
}

/**
 * Create transcription: the audio is fetched, then sent as multipart to
 * /audio/transcriptions with whisper-1; the text is saved. Credits: whisper is priced by
 * the minute, which we do not know; the transcript is recorded as estimated output tokens.
 */
async function createTranscription(context: Ctx<'Create transcription'>) {
  const { options, logger, variables, http, ai, signal } = context
  const endpoint = endpointOf(context)
  if (!endpoint.apiKey) return void logger.error(AI_ERRORS.noApiKey)
  const url = options.url?.trim()
  if (!url) return void logger.error('Audio URL is empty')
  if (!options.transcriptionVariableId) return void logger.error('Missing transcription variable')
  await ai.ensureCredits()
  try {
    const audioResponse = await http.request(url, { timeoutMs: 60_000, signal })
    await ensureOk(audioResponse)
    const type = audioResponse.headers.get('content-type') || 'audio/mpeg'
    const audio = await audioResponse.arrayBuffer()
    const form = new FormData()
    form.append('file', new Blob([audio], { type }), audioFileName(url, type))
    form.append('model', TRANSCRIPTION_MODEL)
    // The guarded client sends bytes: let the platform encode the multipart body.
    const encoded = new Response(form)
    const headers = endpointHeaders(endpoint, false)
    headers['content-type'] = encoded.headers.get('content-type')!
    const response = await http.request(endpointUrl(endpoint, 'audio/transcriptions'), {
      method: 'POST',
      headers,
      body: new Uint8Array(await encoded.arrayBuffer()),
      timeoutMs: 120_000,
      signal,
    })
    await ensureOk(response)
    const body = (await response.json()) as { text?: unknown }
    const text = typeof body?.text === 'string' ? body.text : ''
    await ai.recordUsage({
      model: TRANSCRIPTION_MODEL,
      inputTokens: 0,
      outputTokens: estimateTokens(text),
    })
    variables.set(options.transcriptionVariableId, text)
  } catch (error) {
    if (isCreditError(error)) throw error
    const log = chatErrorLog(error)
    logger.error(log.description, log.details)
  }
}

/**
 * Create image: POST /images/generations (base64 answer, because the provider's own URLs
 * expire), stored, URL saved. Credits: images are priced per picture; the prompt is
 * recorded as estimated input tokens under the image model, whose price row an admin sets.
 */
async function createImage(context: Ctx<'Create image'>) {
  const { options, logger, variables, http, storage, ai, signal } = context
  const endpoint = endpointOf(context)
  if (!endpoint.apiKey) return void logger.error(AI_ERRORS.noApiKey)
  const prompt = options.prompt?.trim()
  if (!prompt) return void logger.error(AI_ERRORS.image, { message: 'The prompt is empty' })
  // Nothing would show the picture: do not pay for it.
  if (!options.saveUrlInVariableId)
    return void logger.error(AI_ERRORS.image, { message: 'No variable to save the image URL in' })
  await ai.ensureCredits()
  try {
    const response = await http.request(endpointUrl(endpoint, 'images/generations'), {
      method: 'POST',
      headers: endpointHeaders(endpoint),
      body: JSON.stringify({
        model: IMAGE_MODEL,
        prompt,
        n: 1,
        size: options.size || '1024x1024',
        response_format: 'b64_json',
      }),
      timeoutMs: 120_000,
      signal,
    })
    await ensureOk(response)
    const body = (await response.json()) as { data?: { b64_json?: string; url?: string }[] }
    const image = body?.data?.[0]
    let bytes: Uint8Array
    let type = 'image/png'
    if (image?.b64_json) {
      bytes = new Uint8Array(Buffer.from(image.b64_json, 'base64'))
    } else if (image?.url) {
      const download = await http.request(image.url, { timeoutMs: 60_000, signal })
      await ensureOk(download)
      type = download.headers.get('content-type') || type
      bytes = new Uint8Array(await download.arrayBuffer())
    } else {
      throw new Error('The answer holds no image')
    }
    await ai.recordUsage({
      model: IMAGE_MODEL,
      inputTokens: estimateTokens(prompt),
      outputTokens: 0,
    })
    const url = await storage.put(bytes, { type, name: `image.${type.split('/')[1] ?? 'png'}` })
    variables.set(options.saveUrlInVariableId, url)
  } catch (error) {
    if (isCreditError(error)) throw error
    logger.error(AI_ERRORS.image, errorDetails(error))
  }
}

/** One runner per action (the registry reads actions with spaces in their names here). */
export default {
  'Create chat completion': chatCompletionRunner(provider) as Runner<
    typeof plugin,
    'Create chat completion'
  >,
  'Create speech': createSpeech as Runner<typeof plugin, 'Create speech'>,
  'Create transcription': createTranscription as Runner<typeof plugin, 'Create transcription'>,
  'Create image': createImage as Runner<typeof plugin, 'Create image'>,
  // A workflow Model node alone only says where it belongs.
  'Chat model': modelNodeAlone,
}

/** What a workflow LLM agent asks its attached Model node for (`ChatModelFactory` of `#sdk/ai`). */
export const chatModel: ChatModelFactory = chatModelFactory(provider)

/**
 * Streamed chat completions (BotRunContext.canStreamTo). Only blocks without tools stream;
 * see chatCompletionRunner.
 */
export const streams = {
  'Create chat completion': chatCompletionStreamer(provider),
}

/** Model ids of the key, as the Model field's options: chat (gpt) and speech (tts) models. */
export const fetchers = {
  models: modelsFetcher(provider, (models) =>
    models.filter((model) => model.id.includes('gpt') || model.id.includes('tts'))
  ),
  // An agent's Model node: chat models only, it cannot talk to speech or image models.
  chatModels: modelsFetcher(provider, (models) =>
    models.filter((model) => model.id.includes('gpt'))
  ),
  knowledgeStores: knowledgeStoresFetcher,
}

/** Knowledge stores embed their chunks with these credentials (docs/knowledge.md). */
export const embeddings: EmbeddingProvider = openAiCompatibleEmbeddings({
  endpoint: (credentials) => provider.endpoint(credentials),
  defaultModel: 'text-embedding-3-small',
})

export { fromN8n } from './n8n.js'
