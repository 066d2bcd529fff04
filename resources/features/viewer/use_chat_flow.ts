import { useCallback, useEffect, useRef, useState } from 'react'
import type {
  ChatInput,
  ChatMessage,
  ChatReply,
  ClientSideAction,
  ContinueChatMessage,
  StartChatResponse,
} from '#shared/chat/types'
import type { BotSettings } from '#shared/bot/types'
import { ChatApiError, chatErrorText, type ChatClient } from './chat_client'
import { runClientAction, type ScriptRunner } from './client_actions'
import type { CalBookingOptions } from './cal_booking'
import { messagePlainText } from './rich_text_utils'
import { usePrefersReducedMotion } from './use_reduced_motion'
import { preloadChatInput } from './inputs/input_switch'
import { startReplyTimer } from './reply_timer'

/**
 * The conversation as the visitor sees it: replies are played one bubble at a time (typing
 * emulation, client-side actions in between), then the reply's input is shown.
 */

export type ChatEntry =
  | { kind: 'bot'; key: string; message: ChatMessage }
  | { kind: 'guest'; key: string; text: string; attachedFileUrls?: string[] }
  /** Server notices for the visitor (AI credits used up) and links a browser blocked. */
  | { kind: 'notice'; key: string; text: string; url?: string }
  /**
   * An AI answer arriving piece by piece (the `stream` action); empty until the first
   * piece. The reply that follows replaces it with the real bubble.
   */
  | { kind: 'stream'; key: string; text: string }
  /**
   * A booking widget (the `calBooking` action) the chat waits on: `onBooked` answers the
   * paused flow with the booked date; `done` once it did.
   */
  | {
      kind: 'booking'
      key: string
      booking: CalBookingOptions
      done: boolean
      onBooked: (date: string) => void
    }

/** What an input hands back: the message for the server and the text of the guest bubble. */
export interface ChatAnswer {
  text: string
  /** Shown in the guest bubble instead of `text` (a file count, a payment's success). */
  display?: string
  attachedFileUrls?: string[]
}

export interface ChatFlowState {
  entries: ChatEntry[]
  typing: boolean
  input?: ChatInput
  /** Changes for every input shown, so a repeated input (retry) starts fresh. */
  inputKey: number
  progress?: number
  sending: boolean
  /** The last failed call, shown beside the input with a retry button. */
  error?: string
  hostAvatarUrl?: string
  guestAvatarUrl?: string
}

interface Options {
  start: StartChatResponse
  client: ChatClient
  settings: BotSettings
  embedded?: boolean
  /** Where the bot's client-side scripts run (the preview's sandbox); this page by default. */
  runScript?: ScriptRunner
  onReply?: (reply: ChatReply) => void
  /** Shown when a call fails without a server message (the network is down). */
  networkErrorText: string
  /** The notice shown when a streamed answer fails, around the reason. */
  streamErrorText?: (reason: string) => string
}

interface TypingConfig {
  enabled: boolean
  wordsPerMinute: number
  maxDelayMs: number
  betweenBubblesMs: number
  skipFirst: boolean
}

function typingConfig(settings: BotSettings, reducedMotion: boolean): TypingConfig {
  const typing = settings.typingEmulation ?? {}
  const enabled =
    !reducedMotion &&
    settings.general?.isTypingEmulationEnabled !== false &&
    typing.enabled !== false
  return {
    enabled,
    wordsPerMinute: typing.speed && typing.speed > 0 ? typing.speed : 400,
    maxDelayMs: Math.max(0, (typing.maxDelay ?? 3) * 1000),
    betweenBubblesMs: Math.min(5, Math.max(0, typing.delayBetweenBubbles ?? 0)) * 1000,
    skipFirst: typing.isDisabledOnFirstMessage !== false,
  }
}

/** Media have no words: a short beat reads as the bot "sending" them. */
const MEDIA_TYPING_MS = 600

function typingDelay(message: ChatMessage, config: TypingConfig) {
  if (message.type !== 'text') return Math.min(MEDIA_TYPING_MS, config.maxDelayMs)
  const words = messagePlainText(message).split(/\s+/).filter(Boolean).length
  return Math.min((words / config.wordsPerMinute) * 60_000, config.maxDelayMs)
}

function toMessage(answer: ChatAnswer): ContinueChatMessage {
  return answer.attachedFileUrls?.length
    ? { type: 'text', text: answer.text, attachedFileUrls: answer.attachedFileUrls }
    : answer.text
}

/** Waits for the page inside an embed bubble to post `{ name, data }`. */
function waitForWindowEvent(name: string, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      const data = event.data as { name?: unknown; data?: unknown } | null
      if (!data || typeof data !== 'object' || data.name !== name) return
      window.removeEventListener('message', listener)
      resolve(data.data)
    }
    window.addEventListener('message', listener)
    signal.addEventListener('abort', () => window.removeEventListener('message', listener), {
      once: true,
    })
  })
}

let keySeed = 0
function nextKey(prefix: string) {
  keySeed += 1
  return `${prefix}-${keySeed}`
}

const INITIAL: ChatFlowState = { entries: [], typing: false, inputKey: 0, sending: false }

interface PlayerContext {
  signal: AbortSignal
  sessionId: string
  update: (change: (previous: ChatFlowState) => ChatFlowState) => void
  /** Read at call time: the latest client, settings and callbacks. */
  current: () => Omit<Options, 'start'> & { reducedMotion: boolean }
  errorText: (error: unknown) => string
  setRetry: (retry: (() => void) | null) => void
}

/**
 * One conversation run: plays replies, runs actions, sends answers. Every step checks the
 * run's signal, so a restart or an unmount stops it where it stands.
 */
function createPlayer(context: PlayerContext) {
  const { signal, sessionId, update, current, errorText, setRetry } = context

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || signal.aborted) return resolve()
      const timer = setTimeout(resolve, ms)
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          resolve()
        },
        { once: true }
      )
    })

  const append = (entry: ChatEntry) =>
    update((previous) => ({ ...previous, entries: [...previous.entries, entry] }))

  /**
   * Sends what an action or an embed produced, then plays the server's answer.
   * `replacing`: the key of a streamed bubble the answer's first message takes the place of.
   */
  const sendDedicated = async (message?: string, replacing?: string): Promise<void> => {
    if (signal.aborted) return
    update((previous) => ({ ...previous, sending: true, error: undefined }))
    let reply: ChatReply
    try {
      reply = await current().client.continueChat(sessionId, message ? { message } : {})
    } catch (error) {
      setRetry(() => void sendDedicated(message, replacing))
      update((previous) => ({ ...previous, sending: false, error: errorText(error) }))
      return
    }
    update((previous) => ({ ...previous, sending: false }))
    await play(reply, false, replacing)
  }

  const withoutEntry = (key: string) =>
    update((previous) => ({
      ...previous,
      entries: previous.entries.filter((entry) => entry.key !== key),
    }))

  /**
   * The `stream` action: the paused AI block's answer grows in a bubble as the server sends
   * it, then the chat goes on with the full text (the server saves it in the block's
   * variable). On failure a notice says why and the chat goes on without an answer.
   */
  const streamAnswer = async (): Promise<void> => {
    const { client, streamErrorText } = current()
    if (!client.streamMessage) return sendDedicated()
    const key = nextKey('stream')
    update((previous) => ({
      ...previous,
      typing: false,
      entries: [...previous.entries, { kind: 'stream', key, text: '' }],
    }))
    let text: string
    try {
      text = await client.streamMessage(
        sessionId,
        (piece) =>
          update((previous) => ({
            ...previous,
            entries: previous.entries.map((entry) =>
              entry.key === key && entry.kind === 'stream'
                ? { ...entry, text: entry.text + piece }
                : entry
            ),
          })),
        signal
      )
    } catch (error) {
      if (signal.aborted) return
      const reason = errorText(error)
      // Used-up AI credits (402) read as a notice of their own, like in a reply.
      const creditsUsedUp = error instanceof ChatApiError && error.status === 402
      withoutEntry(key)
      append({
        kind: 'notice',
        key: nextKey('notice'),
        text: streamErrorText && !creditsUsedUp ? streamErrorText(reason) : reason,
      })
      return sendDedicated()
    }
    if (signal.aborted) return
    await sendDedicated(text, key)
  }

  /** True when the action handed the flow over to a dedicated reply. */
  const runAction = async (action: ClientSideAction): Promise<boolean> => {
    if (action.type === 'stream') {
      await streamAnswer()
      return true
    }
    if (action.type === 'calBooking') {
      const key = nextKey('booking')
      const date = await new Promise<string>((resolve) => {
        append({ kind: 'booking', key, booking: action.calBooking, done: false, onBooked: resolve })
        signal.addEventListener('abort', () => resolve(''), { once: true })
      })
      if (signal.aborted) return true
      update((previous) => ({
        ...previous,
        entries: previous.entries.map((entry) =>
          entry.key === key && entry.kind === 'booking'
            ? { ...entry, done: true, onBooked: () => {} }
            : entry
        ),
      }))
      await sendDedicated(date)
      return true
    }
    const outcome = await runClientAction(action, {
      sleep,
      embedded: Boolean(current().embedded),
      runScript: current().runScript,
      onBlockedLink: (url) => append({ kind: 'notice', key: nextKey('link'), text: url, url }),
    })
    if (signal.aborted) return true
    if (!action.expectsDedicatedReply) return false
    await sendDedicated(outcome.message)
    return true
  }

  const play = async (
    reply: ChatReply,
    isFirstReply: boolean,
    replacing?: string
  ): Promise<void> => {
    if (signal.aborted) return
    // The streamed bubble gives way to the reply's first message (or to nothing).
    let streamed = replacing
    if (streamed && !(reply.messages ?? []).length) {
      withoutEntry(streamed)
      streamed = undefined
    }
    const { settings, reducedMotion, onReply } = current()
    onReply?.(reply)
    // The input's code downloads while the bubbles before it are typed.
    if (reply.input) preloadChatInput(reply.input.type)
    update((previous) => ({
      ...previous,
      progress: reply.progress ?? previous.progress,
      hostAvatarUrl: reply.dynamicTheme?.hostAvatarUrl ?? previous.hostAvatarUrl,
      guestAvatarUrl: reply.dynamicTheme?.guestAvatarUrl ?? previous.guestAvatarUrl,
    }))
    const typing = typingConfig(settings, reducedMotion)
    const actions = reply.clientSideActions ?? []
    const messages = reply.messages ?? []
    const messageIds = new Set(messages.map((message) => message.id))
    for (const action of actions) {
      if (action.lastBubbleBlockId && messageIds.has(action.lastBubbleBlockId)) continue
      if (await runAction(action)) return
    }

    for (const [index, message] of messages.entries()) {
      if (signal.aborted) return
      if (index > 0 && typing.enabled) await sleep(typing.betweenBubblesMs)
      const replaces = index === 0 ? streamed : undefined
      // A streamed answer was read as it came: its bubble is not typed again.
      const skipTyping =
        Boolean(replaces) || !typing.enabled || (isFirstReply && index === 0 && typing.skipFirst)
      if (!skipTyping) {
        update((previous) => ({ ...previous, typing: true }))
        await sleep(typingDelay(message, typing))
      }
      if (signal.aborted) return
      const entry: ChatEntry = { kind: 'bot', key: nextKey('bot'), message }
      update((previous) => ({
        ...previous,
        typing: false,
        entries:
          replaces && previous.entries.some((candidate) => candidate.key === replaces)
            ? previous.entries.map((candidate) => (candidate.key === replaces ? entry : candidate))
            : [...previous.entries, entry],
      }))
      for (const action of actions) {
        if (action.lastBubbleBlockId !== message.id) continue
        if (await runAction(action)) return
      }
      const wait = message.type === 'embed' ? message.content.waitForEvent : undefined
      if (wait?.isEnabled && wait.name) {
        const data = await waitForWindowEvent(wait.name, signal)
        if (signal.aborted) return
        // The server holds the flow at such an embed when nothing follows it in the reply.
        if (index === messages.length - 1 && !reply.input) {
          await sendDedicated(data === undefined ? wait.name : stringifyEventData(data))
          return
        }
      }
    }

    for (const text of [reply.aiCreditLimitExceededError, reply.chatLimitExceededError]) {
      if (text) append({ kind: 'notice', key: nextKey('notice'), text })
    }
    const input = reply.input
    if (input) {
      update((previous) => ({ ...previous, input, inputKey: previous.inputKey + 1 }))
      armReplyTimer(input)
    }
  }

  // Set at once, unlike state: a double Enter must not send the answer twice.
  let submitting = false
  let stopReplyTimer: (() => void) | null = null
  /** The question on screen, for re-arming its timer when sending an answer failed. */
  let shownInput: ChatInput | undefined
  signal.addEventListener('abort', () => stopReplyTimer?.(), { once: true })

  /**
   * A question with a reply timeout: counted from when the visitor sees it (after the
   * bubbles before it were typed), so the server's deadline, set when it answered, has
   * passed by the time the timer fires.
   */
  const armReplyTimer = (input: ChatInput) => {
    stopReplyTimer?.()
    stopReplyTimer = null
    shownInput = input
    const seconds = input.timeout?.seconds
    if (!seconds || !current().client.timeoutChat || signal.aborted) return
    stopReplyTimer = startReplyTimer(seconds, () => void replyTimedOut(input))
  }

  /** No answer in time: the "No reply" path's reply is played in place of the question. */
  const replyTimedOut = async (input: ChatInput): Promise<void> => {
    stopReplyTimer = null
    const timeoutChat = current().client.timeoutChat
    if (signal.aborted || submitting || !timeoutChat) return
    submitting = true
    update((previous) => ({ ...previous, sending: true, error: undefined }))
    let reply: ChatReply
    try {
      reply = await timeoutChat(sessionId, { blockId: input.id })
    } catch {
      // Not due or no longer awaited (409), or offline: the question stays as it is.
      submitting = false
      update((previous) => ({ ...previous, sending: false }))
      return
    }
    submitting = false
    update((previous) => ({ ...previous, sending: false, input: undefined }))
    await play(reply, false)
  }

  const submit = async (answer: ChatAnswer): Promise<void> => {
    if (signal.aborted || submitting) return
    submitting = true
    stopReplyTimer?.()
    stopReplyTimer = null
    const answerInput = shownInput
    const key = nextKey('guest')
    update((previous) => ({
      ...previous,
      sending: true,
      error: undefined,
      entries: [
        ...previous.entries,
        {
          kind: 'guest',
          key,
          text: answer.display ?? answer.text,
          attachedFileUrls: answer.attachedFileUrls,
        },
      ],
    }))
    let reply: ChatReply
    try {
      reply = await current().client.continueChat(sessionId, { message: toMessage(answer) })
    } catch (error) {
      submitting = false
      setRetry(() => void submit(answer))
      // The question is still asked: so is its reply timeout (the server's deadline holds).
      const asked = answerInput
      if (asked) armReplyTimer(asked)
      // Rolled back: the server kept nothing, the visitor may answer again.
      update((previous) => ({
        ...previous,
        sending: false,
        error: errorText(error),
        entries: previous.entries.filter((entry) => entry.key !== key),
      }))
      return
    }
    submitting = false
    update((previous) => ({ ...previous, sending: false, input: undefined }))
    await play(reply, false)
  }

  return { play, submit }
}

export function useChatFlow(options: Options) {
  const { start } = options
  const [state, setState] = useState<ChatFlowState>(INITIAL)
  const reducedMotion = usePrefersReducedMotion()
  const playerRef = useRef<ReturnType<typeof createPlayer> | null>(null)
  const retryRef = useRef<(() => void) | null>(null)
  // Read through a ref so that a new callback identity never restarts the conversation.
  const latest = useRef({ ...options, reducedMotion })
  latest.current = { ...options, reducedMotion }

  useEffect(() => {
    const run = new AbortController()
    const player = createPlayer({
      signal: run.signal,
      sessionId: start.sessionId,
      update: (change) => {
        if (!run.signal.aborted) setState(change)
      },
      current: () => latest.current,
      errorText: (error) => chatErrorText(error, latest.current.networkErrorText),
      setRetry: (retry) => {
        retryRef.current = retry
      },
    })
    playerRef.current = player
    setState(INITIAL)
    void player.play(start, true)
    return () => run.abort()
  }, [start])

  const submit = useCallback((answer: ChatAnswer) => {
    void playerRef.current?.submit(answer)
  }, [])

  const retry = useCallback(() => {
    const again = retryRef.current
    retryRef.current = null
    setState((previous) => ({ ...previous, error: undefined }))
    again?.()
  }, [])

  return { state, submit, retry }
}

function stringifyEventData(data: unknown) {
  if (typeof data === 'string') return data
  try {
    return JSON.stringify(data)
  } catch {
    return String(data)
  }
}
