import type {
  ChatReply,
  ContinueChatRequest,
  PreviewStartChatRequest,
  StartChatRequest,
  StartChatResponse,
  TimeoutChatRequest,
} from '#shared/chat/types'
import { HttpError, jsonFetch, readXsrfToken } from '~/lib/http'
import { translateServerMessage } from '~/lib/i18n_core'

/**
 * The chat API seen from the browser. Public calls use plain fetch without cookies: the
 * page may run inside another site's iframe and a visitor is never signed in. Preview
 * calls come from the editor, signed in, so they go through jsonFetch (session + XSRF).
 */

/** A failed call: `status` 0 when the network failed; texts as the server sent them. */
export class ChatApiError extends Error {
  status: number
  description?: string

  constructor(message: string, status: number, description?: string) {
    super(message)
    this.name = 'ChatApiError'
    this.status = status
    this.description = description
  }
}

/** The server's message and description in the visitor's language, else `fallback`. */
export function chatErrorText(error: unknown, fallback: string): string {
  if (!(error instanceof ChatApiError) || !error.message) return fallback
  const parts = [error.message, error.description].filter((part): part is string => Boolean(part))
  return parts.map((part) => translateServerMessage(part)).join(' ')
}

export interface UploadProgress {
  loaded: number
  total: number
}

/** What the conversation needs once a session exists (shared by public and preview). */
export interface ChatClient {
  continueChat(sessionId: string, body: ContinueChatRequest): Promise<ChatReply>
  /**
   * The reply timeout of the question `blockId` passed: the "No reply" path's reply. A
   * 409 (not due yet, or the question is no longer awaited) leaves the chat as it is.
   */
  timeoutChat?(sessionId: string, body: TimeoutChatRequest): Promise<ChatReply>
  /**
   * Streams the answer of the block the session is paused on (the `stream` action):
   * `onText` gets each piece as it arrives; resolves with the whole text. Optional: a
   * client without it never asks for streaming (isStreamEnabled).
   */
  streamMessage?(
    sessionId: string,
    onText: (piece: string) => void,
    signal?: AbortSignal
  ): Promise<string>
  uploadFile(
    sessionId: string,
    blockId: string,
    file: File,
    onProgress?: (progress: UploadProgress) => void,
    signal?: AbortSignal
  ): Promise<string>
}

function apiUrl(apiHost: string, path: string, version = 'v1') {
  return `${apiHost.replace(/\/$/, '')}/api/${version}${path}`
}

/** The server's `{ message, description }` as a ChatApiError. */
function apiError(body: unknown, status: number) {
  const read = (key: 'message' | 'description') => {
    const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : null
    return typeof value === 'string' && value ? value : undefined
  }
  return new ChatApiError(read('message') ?? '', status, read('description'))
}

/** An answer read whole: what publicPost needs to resolve or throw. */
interface ReadAnswer {
  ok: boolean
  status: number
  text: string
}

function parseAnswer<T>({ ok, status, text }: ReadAnswer): T {
  let data: unknown = null
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = null
  }
  if (!ok) throw apiError(data, status)
  return data as T
}

/**
 * The public page's startChat, sent by a small inline script of resources/views/viewer.edge
 * while the chat's scripts download (docs/architecture.md, "The visitor surface"). The
 * answer is null when the network failed.
 */
interface EarlyStart {
  url: string
  body: string
  answer: Promise<ReadAnswer | null>
}

declare global {
  interface Window {
    __flowcraftStart?: EarlyStart
  }
}

/**
 * The early startChat's answer when it asked exactly what the chat asks now; taken once,
 * so a restart (or another start) sends its own.
 */
function takeEarlyStart(url: string, body: string) {
  if (typeof window === 'undefined') return undefined
  const early = window.__flowcraftStart
  if (!early) return undefined
  delete window.__flowcraftStart
  return early.url === url && early.body === body ? early.answer : undefined
}

async function publicPost<T>(
  url: string,
  body: unknown,
  signal?: AbortSignal,
  early = false
): Promise<T> {
  const json = JSON.stringify(body ?? {})
  const sent = early ? await takeEarlyStart(url, json) : undefined
  if (sent) {
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError')
    return parseAnswer<T>(sent)
  }
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      // JSON sent as text/plain: a simple request, so no CORS preflight before each call
      // from the public page's opaque origin or an embed (app/middleware/body_parser_middleware.ts).
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'Accept': 'application/json' },
      body: json,
      credentials: 'omit',
      signal,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ChatApiError('', 0)
  }
  return parseAnswer<T>({ ok: response.ok, status: response.status, text: await response.text() })
}

/**
 * POST streamMessage and read the plain-text body as it comes. A refusal (an error before
 * the first piece) is JSON `{ message }` with the provider's status: a ChatApiError.
 */
async function streamText(
  url: string,
  onText: (piece: string) => void,
  signal?: AbortSignal
): Promise<string> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Accept: 'text/plain, application/json' },
      // Same-origin only: the preview's own page; an embed on another site sends none.
      credentials: 'same-origin',
      signal,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ChatApiError('', 0)
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '')
    let data: unknown = null
    try {
      data = text ? JSON.parse(text) : null
    } catch {
      data = null
    }
    throw apiError(data, response.status)
  }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let full = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const piece = decoder.decode(value, { stream: true })
      if (!piece) continue
      full += piece
      onText(piece)
    }
  } catch (error) {
    if (signal?.aborted) throw error
    // The connection broke mid-answer: what came is kept, the chat goes on with it.
  }
  const rest = decoder.decode()
  if (rest) {
    full += rest
    onText(rest)
  }
  return full
}

function streamUrl(apiHost: string, sessionId: string) {
  return apiUrl(apiHost, `/sessions/${encodeURIComponent(sessionId)}/streamMessage`, 'v2')
}

function toChatError(error: unknown): never {
  if (error instanceof HttpError) {
    throw new ChatApiError(error.message, error.status, error.description)
  }
  throw error
}

/** XHR rather than fetch: fetch reports no upload progress. */
function upload(
  url: string,
  blockId: string,
  file: File,
  withSession: boolean,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.setRequestHeader('Accept', 'application/json')
    if (withSession) {
      const token = readXsrfToken()
      if (token) request.setRequestHeader('X-XSRF-TOKEN', token)
    }
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total })
    })
    request.addEventListener('load', () => {
      let data: unknown = null
      try {
        data = JSON.parse(request.responseText)
      } catch {
        data = null
      }
      const fileUrl = data && typeof data === 'object' ? (data as { url?: unknown }).url : undefined
      if (request.status >= 200 && request.status < 300 && typeof fileUrl === 'string') {
        resolve(fileUrl)
      } else reject(apiError(data, request.status))
    })
    request.addEventListener('error', () => reject(new ChatApiError('', 0)))
    request.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))
    signal?.addEventListener('abort', () => request.abort(), { once: true })
    const form = new FormData()
    form.append('blockId', blockId)
    form.append('file', file)
    request.send(form)
  })
}

export interface PublicChatClient extends ChatClient {
  startChat(
    publicId: string,
    body: StartChatRequest,
    signal?: AbortSignal
  ): Promise<StartChatResponse>
}

/** `apiHost` is empty for the page's own origin. */
export function createPublicChatClient(apiHost = ''): PublicChatClient {
  return {
    startChat: (publicId, body, signal) =>
      publicPost(
        apiUrl(apiHost, `/typebots/${encodeURIComponent(publicId)}/startChat`),
        body,
        signal,
        // The page's own start may already be on its way (resources/views/viewer.edge).
        !apiHost
      ),
    continueChat: (sessionId, body) =>
      publicPost(apiUrl(apiHost, `/sessions/${encodeURIComponent(sessionId)}/continueChat`), body),
    timeoutChat: (sessionId, body) =>
      publicPost(apiUrl(apiHost, `/sessions/${encodeURIComponent(sessionId)}/timeout`), body),
    streamMessage: (sessionId, onText, signal) =>
      streamText(streamUrl(apiHost, sessionId), onText, signal),
    uploadFile: (sessionId, blockId, file, onProgress, signal) =>
      upload(
        apiUrl(apiHost, `/sessions/${encodeURIComponent(sessionId)}/files`),
        blockId,
        file,
        false,
        onProgress,
        signal
      ),
  }
}

export interface PreviewChatClient extends ChatClient {
  startPreviewChat(
    botId: string,
    body: PreviewStartChatRequest,
    signal?: AbortSignal
  ): Promise<StartChatResponse>
}

export function createPreviewChatClient(): PreviewChatClient {
  return {
    startPreviewChat: (botId, body, signal) =>
      jsonFetch<StartChatResponse>(
        apiUrl('', `/typebots/${encodeURIComponent(botId)}/preview/startChat`),
        { method: 'POST', body, signal }
      ).catch(toChatError),
    continueChat: (sessionId, body) =>
      jsonFetch<ChatReply>(apiUrl('', `/sessions/${encodeURIComponent(sessionId)}/continueChat`), {
        method: 'POST',
        body,
      }).catch(toChatError),
    timeoutChat: (sessionId, body) =>
      jsonFetch<ChatReply>(apiUrl('', `/sessions/${encodeURIComponent(sessionId)}/timeout`), {
        method: 'POST',
        body,
      }).catch(toChatError),
    streamMessage: (sessionId, onText, signal) =>
      streamText(streamUrl('', sessionId), onText, signal),
    uploadFile: (sessionId, blockId, file, onProgress, signal) =>
      upload(
        apiUrl('', `/sessions/${encodeURIComponent(sessionId)}/files`),
        blockId,
        file,
        true,
        onProgress,
        signal
      ),
  }
}
