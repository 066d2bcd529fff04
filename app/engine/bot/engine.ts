import { formatVariableValue } from '#plugins/substitute'
import { LANGUAGE_VARIABLE, pickLanguage } from '#shared/bot/translations'
import type { EngineBot, EnginePorts } from './ports.js'
import { type EngineVariable, type SessionState } from './state.js'
import { Turn } from './turn.js'
import { cloneVariables } from './turn_records.js'
import { takeTimeout } from './turn_timeout.js'
import {
  type TurnOutput,
  type StartInput,
  type ContinueInput,
  type TimeoutStatus,
} from './turn_types.js'

/**
 * The chat engine (docs/architecture.md): a pure function of (bot, session state, incoming
 * message) giving (reply, new state, effects to persist). It walks from the start event,
 * collects bubbles, stops at inputs, validates answers through the input plugins, follows
 * block, item and event edges, and calls every block's runner through the ports.
 */

export * from './turn_types.js'
export { textContent, messageText, textBubbleMentions } from './messages.js'
export { resultVariablesOf } from './turn_records.js'
export { timeoutSecondsOf } from './turn_timeout.js'

function prefill(variables: EngineVariable[], values: Record<string, unknown> | undefined) {
  if (!values) return
  for (const [name, value] of Object.entries(values)) {
    const variable = variables.find((v) => v.name === name || v.id === name)
    if (!variable) continue
    variable.value = Array.isArray(value)
      ? value.map((item) => formatVariableValue(item))
      : value === null || value === undefined
        ? null
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value)
  }
}

/**
 * What the bot's settings ask of the page it is shown on, for the first reply's
 * "inject start props" action: its Google Tag Manager container. Null when none.
 */
export function startPropsOf(bot: EngineBot): { gtmId: string } | null {
  const gtmId = String(
    (bot.content.settings as { metadata?: { googleTagManagerId?: unknown } } | undefined)?.metadata
      ?.googleTagManagerId ?? ''
  ).trim()
  return /^GTM-[A-Z0-9]+$/i.test(gtmId) ? { gtmId } : null
}

function prefilledLanguage(values: Record<string, unknown> | undefined) {
  if (!values) return undefined
  const key = Object.keys(values).find((name) => name.toLowerCase() === LANGUAGE_VARIABLE)
  return key ? values[key] : undefined
}

/** Starts a chat: a new state, the walk from the start (or from startFrom in preview). */
export async function startChat(ports: EnginePorts, input: StartInput): Promise<TurnOutput> {
  const variables = cloneVariables(input.bot.content.variables)
  prefill(variables, input.prefilledVariables)
  const state: SessionState = {
    version: '3',
    botsQueue: [
      {
        botId: input.bot.id,
        publishedAt: input.bot.publishedAt,
        workspaceId: input.bot.workspaceId,
        resultId: input.resultId,
        variables,
        resumeParentAt: null,
        returnMarks: [],
      },
    ],
    textBubbleContentFormat: input.textBubbleContentFormat ?? 'richText',
    isPreview: Boolean(input.isPreview),
    source: input.source ?? 'web',
    answeredCount: 0,
    transcript: [],
    allowedOrigins: input.allowedOrigins,
    expiryTimeout: input.expiryTimeout,
    startFrom: input.startFrom,
  }
  if (input.isStreamEnabled) state.isStreamEnabled = true
  const language = pickLanguage(input.bot.content.settings, {
    ...input.languageWishes,
    variable: prefilledLanguage(input.prefilledVariables),
  })
  if (language) {
    state.language = language
    // The chat's language is readable (and changeable) as the `language` variable.
    const variable = variables.find((v) => v.name.toLowerCase() === LANGUAGE_VARIABLE)
    if (variable) variable.value = language
  }
  const turn = new Turn(state, ports, input.sessionId, input.bot, input.contact, input.now)
  if (input.resultId) {
    // The result exists from the first view, with its prefilled variables.
    turn.touchResult()
  }
  if (input.isOnlyRegistering) {
    state.notStarted = true
    return turn.output()
  }
  const startProps = startPropsOf(input.bot)
  if (startProps) turn.addAction({ type: 'injectStartProps', injectStartProps: startProps })
  await turn.walk(turn.startPoint(input.startFrom))
  if (input.message) {
    await turn.answerOpening(input.message)
    // A visitor who wrote started a chat, also when the message came before the bot's first
    // question and answered nothing (docs/security.md, "Chats of the month").
    const { text, attachedFileUrls } = input.message
    if ((typeof text === 'string' && text.trim() !== '') || attachedFileUrls?.length) {
      turn.markStarted()
    }
  }
  return turn.output()
}

/**
 * The awaited input's reply timeout fired (the web viewer's timer, a channel's delayed
 * job): past its deadline the "No reply" path runs, else nothing changes. `expected`
 * names the question the timer was set for, so a late timer of an earlier question is
 * stale rather than taken.
 */
export async function timeoutChat(
  ports: EnginePorts,
  input: ContinueInput & { expected?: { blockId: string; deadline?: number } }
): Promise<{ status: TimeoutStatus; output: TurnOutput }> {
  const turn = new Turn(input.state, ports, input.sessionId, input.bot, input.contact, input.now)
  const status = await takeTimeout(turn, input.expected)
  return { status, output: turn.output() }
}

/** Takes the next turn of a session with the visitor's message (or none). */
export async function continueChat(ports: EnginePorts, input: ContinueInput): Promise<TurnOutput> {
  const state = input.state
  if (input.textBubbleContentFormat) state.textBubbleContentFormat = input.textBubbleContentFormat
  const turn = new Turn(state, ports, input.sessionId, input.bot, input.contact, input.now)
  if (state.notStarted) {
    state.notStarted = false
    await turn.walk(turn.startPoint(state.startFrom))
    if (input.message && state.awaiting) await turn.answer(input.message)
    return turn.output()
  }
  if (!state.awaiting) {
    // The chat is over: nothing more to say.
    return turn.output()
  }
  await turn.answer(input.message)
  return turn.output()
}

/**
 * The block a session is paused on, with the BotRunContext its runner received: the
 * stream endpoint runs the block's streamer with it. Reads the state, changes nothing.
 */
export function awaitedBlockOf(
  ports: EnginePorts,
  input: { state: SessionState; sessionId: string; bot: EngineBot }
) {
  return new Turn(input.state, ports, input.sessionId, input.bot).awaitedBlock()
}
