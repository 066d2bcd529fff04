import type { Runner } from '#sdk/plugin'
import { callTwilio, type TwilioCredentials } from './api.js'
import { VOICE_DEFAULTS } from './index.js'
import type plugin from './index.js'
import { bounded, escapeXml } from './twiml.js'
import { aiVoiceCall, voiceAgentCallbacks } from './voice_agent.js'

interface TwilioResource {
  sid: string
  status: string
  to: string
  from: string
}

const E164 = /^\+[1-9]\d{6,14}$/

function numbers(options: { to?: string; from?: string }, credentials: TwilioCredentials) {
  const to = options.to?.trim() ?? ''
  const from = options.from?.trim() || credentials.phoneNumber?.trim() || ''
  if (!E164.test(to)) throw new Error(`Twilio: "${to}" is not a phone number (+14155550123)`)
  if (!from) throw new Error("Twilio: no sender: set From or the account's phone number")
  if (!E164.test(from)) throw new Error(`Twilio: "${from}" is not a phone number (+14155550123)`)
  return { To: to, From: from }
}

/**
 * The call's TwiML: the message said in the chosen voice and language. With an answer URL
 * the message is a question: a speech <Gather> waits `questionTimeout` s for the caller to
 * start and ends the answer after `pauseDetection` s of silence, Twilio posting the
 * transcription there; unanswered, it is asked again `retries` times, then the call ends.
 */
export function voiceTwiml(options: {
  message: string
  language?: string
  voice?: string
  // Number options may hold a {{variable}}: read as numbers by `bounded`.
  questionTimeout?: unknown
  pauseDetection?: unknown
  retries?: unknown
  answerUrl?: string
}) {
  const language = escapeXml(options.language?.trim() || VOICE_DEFAULTS.language)
  const voice = escapeXml(options.voice?.trim() || VOICE_DEFAULTS.voice)
  const say = `<Say voice="${voice}" language="${language}">${escapeXml(options.message)}</Say>`
  const answerUrl = options.answerUrl?.trim()
  if (!answerUrl)
    return `<?xml version="1.0" encoding="UTF-8"?><Response>${say}<Hangup/></Response>`
  const timeout = bounded(options.questionTimeout, VOICE_DEFAULTS.questionTimeout, 1, 60)
  const pause = bounded(options.pauseDetection, VOICE_DEFAULTS.pauseDetection, 1, 10)
  const asks = 1 + bounded(options.retries, VOICE_DEFAULTS.retries, 0, 10)
  const gather =
    `<Gather input="speech" language="${language}" timeout="${timeout}" speechTimeout="${pause}"` +
    ` action="${escapeXml(answerUrl)}" method="POST">${say}</Gather>`
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${gather.repeat(asks)}<Hangup/></Response>`
}

const sendSms: Runner<typeof plugin, 'Send SMS'> = async ({
  options,
  credentials,
  http,
  signal,
  logger,
}) => {
  const body = options.body ?? ''
  if (!body.trim()) throw new Error('Twilio: the message is empty')
  const message = await callTwilio<TwilioResource>(
    credentials,
    '/Messages.json',
    { http, signal },
    { ...numbers(options, credentials), Body: body }
  )
  logger.success(`SMS to ${message.to} ${message.status}`)
  return {
    output: { sid: message.sid, status: message.status, to: message.to, from: message.from },
  }
}

const makeCall: Runner<typeof plugin, 'Make a call'> = async ({
  options,
  credentials,
  http,
  signal,
  logger,
}) => {
  const message = options.message?.trim()
  if (!message) throw new Error('Twilio: the call has nothing to say')
  const answerUrl = options.answerUrl?.trim()
  if (answerUrl && !/^https?:\/\/\S+$/i.test(answerUrl)) {
    throw new Error(`Twilio: "${answerUrl}" is not a URL for the answer`)
  }
  const call = await callTwilio<TwilioResource>(
    credentials,
    '/Calls.json',
    { http, signal },
    {
      ...numbers(options, credentials),
      Twiml: voiceTwiml({ ...options, message, answerUrl }),
      TimeLimit: bounded(options.timeout, VOICE_DEFAULTS.timeout, 1, 240) * 60,
      Timeout: 60,
    }
  )
  logger.success(`Call to ${call.to} ${call.status}`)
  return { output: { sid: call.sid, status: call.status, to: call.to, from: call.from } }
}

export default {
  'Send SMS': sendSms,
  'Make a call': makeCall,
  'AI voice call': aiVoiceCall,
}

/** Twilio's calls back during an AI voice call (#sdk/sessions, docs/plugins.md). */
export const callbacks = voiceAgentCallbacks
