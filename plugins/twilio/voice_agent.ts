import type { SurfaceRunner } from '#sdk/runner'
import { createChatCompletion, isAiCreditError, type ChatMessage } from '#sdk/ai'
import {
  closePluginSession,
  openPluginSession,
  updatePluginSession,
  type PluginCallback,
  type PluginCallbackAnswer,
  type PluginCallbackContext,
} from '#sdk/sessions'
import { callTwilio, type TwilioCredentials } from './api.js'
import { VOICE_AGENT_DEFAULTS, VOICE_DEFAULTS } from './index.js'
import type plugin from './index.js'
import { isValidTwilioSignature } from './signature.js'
import { bounded, escapeXml, twimlResponse } from './twiml.js'

/**
 * The AI voice call (README.md, "AI voice call"): the node places the call with a `Url`
 * on the app's public session URL, then each of Twilio's requests is one step of the
 * conversation, the state (settings, transcript, counters) kept in the plugin session's row.
 */

const OPENAI_BASE_URL = 'https://api.openai.com/v1'
const E164 = /^\+[1-9]\d{6,14}$/
/** Twilio's final call statuses (its StatusCallback): the call is over. */
const FINAL_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled'])

export interface TranscriptLine {
  role: 'assistant' | 'caller'
  text: string
}

export interface VoiceAgentState {
  credentialsId: string
  aiCredentialsId: string
  model: string
  systemPrompt: string
  greeting: string
  noAnswerMessage: string
  farewell: string
  endPhrases: string[]
  language: string
  voice: string
  maxTokens: number
  maxTurns: number
  questionTimeout: number
  pauseDetection: number
  retries: number
  to: string
  from: string
  callSid?: string
  transcript: TranscriptLine[]
  /** Answers of the model so far. */
  turns: number
  /** Unanswered questions in a row. */
  silences: number
}

/** What the workflow node outputs once the call is over. */
export interface VoiceAgentOutcome {
  sid: string | null
  to: string
  from: string
  status: string
  /** 'turn limit', 'caller' (an end phrase), 'silence', 'hangup' (the call ended first), 'error' */
  endedBy: string
  turns: number
  transcript: TranscriptLine[]
  error?: string
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() ? value.trim() : fallback

/** The node's options as the session keeps them: defaults applied, numbers within bounds. */
export function voiceAgentState(
  options: Record<string, unknown>,
  numbers: { to: string; from: string }
): VoiceAgentState {
  return {
    credentialsId: String(options.credentialsId ?? ''),
    aiCredentialsId: String(options.aiCredentialsId ?? ''),
    model: text(options.model, VOICE_AGENT_DEFAULTS.model),
    systemPrompt: text(options.systemPrompt, VOICE_AGENT_DEFAULTS.systemPrompt),
    greeting: text(options.greeting, VOICE_AGENT_DEFAULTS.greeting),
    noAnswerMessage: text(options.noAnswerMessage, VOICE_AGENT_DEFAULTS.noAnswer),
    farewell: text(options.farewell, VOICE_AGENT_DEFAULTS.farewell),
    endPhrases: text(options.endPhrases, VOICE_AGENT_DEFAULTS.endPhrases)
      .split(',')
      .map((phrase) => phrase.trim().toLowerCase())
      .filter(Boolean),
    language: text(options.language, VOICE_DEFAULTS.language),
    voice: text(options.voice, VOICE_DEFAULTS.voice),
    maxTokens: bounded(options.maxTokens, VOICE_AGENT_DEFAULTS.maxTokens, 1, 4096),
    maxTurns: bounded(
      options.maxConversationTurns,
      VOICE_AGENT_DEFAULTS.maxConversationTurns,
      1,
      100
    ),
    questionTimeout: bounded(options.questionTimeout, VOICE_DEFAULTS.questionTimeout, 1, 60),
    pauseDetection: bounded(options.pauseDetection, VOICE_DEFAULTS.pauseDetection, 1, 10),
    retries: bounded(options.retries, VOICE_DEFAULTS.retries, 0, 10),
    to: numbers.to,
    from: numbers.from,
    transcript: [],
    turns: 0,
    silences: 0,
  }
}

const say = (state: VoiceAgentState, words: string) =>
  `<Say voice="${escapeXml(state.voice)}" language="${escapeXml(state.language)}">${escapeXml(words)}</Say>`

/**
 * Listens for the caller's next answer. Twilio posts to the turn URL even when nothing was
 * said (actionOnEmptyResult), so silence is counted there and not lost in a fall-through.
 */
const gather = (state: VoiceAgentState, turnUrl: string) =>
  `<Gather input="speech" action="${escapeXml(turnUrl)}" method="POST" language="${escapeXml(state.language)}"` +
  ` timeout="${state.questionTimeout}" speechTimeout="${state.pauseDetection}" actionOnEmptyResult="true"></Gather>`

const xml = (verbs: string): PluginCallbackAnswer<VoiceAgentState> => ({
  status: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: twimlResponse(verbs),
})

/** Speaks and waits for the next answer. */
function ask(
  context: PluginCallbackContext<VoiceAgentState>,
  state: VoiceAgentState,
  words: string
): PluginCallbackAnswer<VoiceAgentState> {
  return { ...xml(say(state, words) + gather(state, context.urlOf('turn'))), state }
}

/** Speaks the last words and hangs up; the session ends with the transcript. */
function hangUp(
  state: VoiceAgentState,
  words: string[],
  endedBy: string,
  error?: string
): PluginCallbackAnswer<VoiceAgentState> {
  for (const line of words) state.transcript.push({ role: 'assistant', text: line })
  const output: VoiceAgentOutcome = {
    sid: state.callSid ?? null,
    to: state.to,
    from: state.from,
    status: 'completed',
    endedBy,
    turns: state.turns,
    transcript: state.transcript,
    ...(error ? { error } : {}),
  }
  return {
    ...xml(words.map((line) => say(state, line)).join('') + '<Hangup/>'),
    state,
    end: { output },
  }
}

/** The POST parameters Twilio signed: the form body as sent (the raw text when there is one). */
function formOf(context: PluginCallbackContext<VoiceAgentState>): Record<string, string> {
  if (context.request.rawBody) {
    return Object.fromEntries(new URLSearchParams(context.request.rawBody))
  }
  return Object.fromEntries(
    Object.entries(context.request.body).map(([name, value]) => [name, String(value ?? '')])
  )
}

/**
 * Only Twilio, for this call: the signature over the URL and the parameters with the
 * account's auth token, the account and the call the session placed. 403 otherwise.
 */
async function verified(
  context: PluginCallbackContext<VoiceAgentState>
): Promise<Record<string, string> | null> {
  const state = context.state
  let credentials: TwilioCredentials
  try {
    credentials = (await context.credentialsOf(state.credentialsId)) as TwilioCredentials
  } catch {
    return null
  }
  const form = formOf(context)
  const signed = isValidTwilioSignature(
    credentials.authToken?.trim() ?? '',
    context.request.url,
    form,
    context.request.headers['x-twilio-signature']
  )
  if (!signed) return null
  if (form.AccountSid && form.AccountSid !== credentials.accountSid?.trim()) return null
  if (state.callSid && form.CallSid && form.CallSid !== state.callSid) return null
  return form
}

const refused = (): PluginCallbackAnswer<VoiceAgentState> => ({ status: 403, body: '' })

/** The caller said one of the end phrases, as a word or words of their answer. */
function saysGoodbye(state: VoiceAgentState, speech: string) {
  const words = ` ${speech.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `
  return state.endPhrases.some((phrase) => {
    const wanted = phrase.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()
    return wanted !== '' && words.includes(` ${wanted} `)
  })
}

/** The model's next line: the system prompt, then the whole conversation so far. */
async function nextLine(
  context: PluginCallbackContext<VoiceAgentState>,
  state: VoiceAgentState
): Promise<string> {
  const credentials = await context.credentialsOf(state.aiCredentialsId)
  const messages: ChatMessage[] = [
    { role: 'system', content: state.systemPrompt },
    ...state.transcript.map((line): ChatMessage => ({
      role: line.role === 'caller' ? 'user' : 'assistant',
      content: line.text,
    })),
  ]
  await context.ai.ensureCredits()
  const completion = await createChatCompletion(
    context.http,
    {
      baseUrl: text(credentials.baseUrl, OPENAI_BASE_URL),
      apiKey: String(credentials.apiKey ?? ''),
      apiVersion: typeof credentials.apiVersion === 'string' ? credentials.apiVersion : undefined,
    },
    { model: state.model, messages, max_tokens: state.maxTokens },
    context.signal
  )
  await context.ai.recordUsage({
    model: completion.model ?? state.model,
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
  })
  const content = completion.choices[0]?.message?.content
  return typeof content === 'string' ? content.trim() : ''
}

/** Twilio fetches the call's first TwiML here once the callee picks up: the greeting. */
const answer: PluginCallback<VoiceAgentState> = async (context) => {
  if (!(await verified(context))) return refused()
  const state = context.state
  if (state.transcript.length === 0) {
    state.transcript.push({ role: 'assistant', text: state.greeting })
  }
  return ask(context, state, state.greeting)
}

/** Each answer of the caller (SpeechResult), or its absence. */
const turn: PluginCallback<VoiceAgentState> = async (context) => {
  const form = await verified(context)
  if (!form) return refused()
  const state = context.state
  const speech = (form.SpeechResult ?? '').trim()
  if (!speech) {
    state.silences += 1
    if (state.silences > state.retries) return hangUp(state, [state.farewell], 'silence')
    return ask(context, state, state.noAnswerMessage)
  }
  state.silences = 0
  state.transcript.push({ role: 'caller', text: speech })
  if (saysGoodbye(state, speech)) return hangUp(state, [state.farewell], 'caller')

  let line: string
  try {
    line = await nextLine(context, state)
  } catch (error) {
    // No credits or a provider failure: the caller is not left in silence, the workflow
    // gets the reason with the transcript.
    const reason = isAiCreditError(error)
      ? 'No AI credits left'
      : (error as Error)?.message || 'The AI provider failed'
    return hangUp(state, [state.farewell], 'error', reason)
  }
  state.turns += 1
  if (!line) return hangUp(state, [state.farewell], 'error', 'The AI provider answered nothing')
  if (state.turns >= state.maxTurns) return hangUp(state, [line, state.farewell], 'turn limit')
  state.transcript.push({ role: 'assistant', text: line })
  return ask(context, state, line)
}

/** Twilio's StatusCallback: a call that ends before the conversation does (hung up, busy). */
const status: PluginCallback<VoiceAgentState> = async (context) => {
  const form = await verified(context)
  if (!form) return refused()
  const state = context.state
  const callStatus = form.CallStatus ?? ''
  if (!FINAL_STATUSES.has(callStatus)) return { status: 204 }
  const output: VoiceAgentOutcome = {
    sid: state.callSid ?? form.CallSid ?? null,
    to: state.to,
    from: state.from,
    status: callStatus,
    endedBy: 'hangup',
    turns: state.turns,
    transcript: state.transcript,
  }
  return { status: 204, end: { output } }
}

export const voiceAgentCallbacks = { answer, turn, status }

/**
 * Places the call. In a workflow the node then waits (parked, not holding a worker) until the
 * session ends, and goes on with the transcript as its output; elsewhere it outputs the call.
 */
export const aiVoiceCall: SurfaceRunner<typeof plugin, 'AI voice call'> = async (context) => {
  const { options, credentials, http, signal, logger, workspaceId, workflow } = context
  if (!options.greeting?.trim()) throw new Error('Twilio: the call has no greeting')
  const to = options.to?.trim() ?? ''
  const from = options.from?.trim() || credentials.phoneNumber?.trim() || ''
  if (!E164.test(to)) throw new Error(`Twilio: "${to}" is not a phone number (+14155550123)`)
  if (!E164.test(from))
    throw new Error("Twilio: no valid sender: set From or the account's phone number")
  // The session belongs to the workspace whose credentials it reads back at each turn.
  if (!workspaceId) throw new Error('Twilio: an AI voice call runs in a workspace')
  const state = voiceAgentState(options, { to, from })
  const minutes = bounded(options.timeout, VOICE_DEFAULTS.timeout, 1, 240)
  const session = await openPluginSession({
    pluginId: 'twilio',
    workspaceId,
    runId: workflow?.runId,
    nodeId: workflow?.node.id,
    state: { ...state },
    credentialIds: [options.credentialsId, options.aiCredentialsId],
    // Twilio's last callback comes when the call's time limit is reached, at the latest.
    ttlMs: (minutes + 10) * 60_000,
  })
  let call: { sid: string; status: string; to: string; from: string }
  try {
    call = await callTwilio(
      credentials,
      '/Calls.json',
      { http, signal },
      {
        To: to,
        From: from,
        Url: session.urlOf('answer'),
        Method: 'POST',
        StatusCallback: session.urlOf('status'),
        StatusCallbackMethod: 'POST',
        TimeLimit: minutes * 60,
        Timeout: 60,
      }
    )
  } catch (error) {
    await closePluginSession(session.id)
    throw error
  }
  await updatePluginSession(session.id, { callSid: call.sid })
  logger.success(`AI voice call to ${call.to} ${call.status}`)
  const output = { sid: call.sid, status: call.status, to: call.to, from: call.from }
  return workflow ? { output, wait: { webhook: true } } : { output }
}
