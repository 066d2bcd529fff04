import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { DateTime } from 'luxon'
import type BotChannel from '#models/bot_channel'
import type { ChannelName } from '#models/bot_channel'
import { newId } from '#services/ids'
import { publishedBotById } from '#services/chat/bot_cache'
import { readSession } from '#services/chat/chat_store'
import {
  CHAT_LIMIT_MESSAGE,
  chatLimitOf,
  persistPublishedTurn,
  publishedEnginePorts,
} from '#services/chat/chat_runtime'
import {
  continueChat,
  startChat,
  textContent,
  timeoutChat,
  type TurnOutput,
} from '#engine/bot/engine'
import { dispatch } from '#queue/queue'
import { evaluateCondition } from '#engine/bot/conditions'
import type { EngineBot } from '#engine/bot/ports'
import { resolveSettings, type ChannelSettings, type ConditionContent } from '#shared/bot/types'
import type { ChatMessage, ChatReply } from '#shared/chat/types'
import type { EngineVariable } from '#engine/bot/state'
import { answerWithMedia, takesFile, type IncomingMedia } from './media.js'
import { albumTaken, hasHeldMessages, holdMessage, pruneHeldMessages } from './held_messages.js'

/**
 * One incoming message of a messaging channel through the same chat engine as the web
 * (docs/channels.md): the contact's live session goes on, or a new chat starts (its start
 * condition permitting, under the workspace's chat limit); the platform's delivery id is
 * taken first so that a retried delivery starts no second turn.
 */

export interface IncomingMessage {
  /** The platform's id of this delivery (Telegram's update_id, WhatsApp's message id). */
  deliveryId: string
  /** Who writes: the Telegram chat id, the WhatsApp number. */
  contactId: string
  contact?: { name?: string; phoneNumber?: string }
  /** The text typed, or the id of the button pressed (a file's caption). */
  text: string
  /** A file or a voice note sent with the message. */
  media?: IncomingMedia
  /** Files sent at once, answering the question together (held messages, held_messages.ts). */
  files?: IncomingMedia[]
  /** Telegram's media_group_id: the messages of one album. */
  groupId?: string
}

export type ChannelOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  /** Held with the contact's other files for a moment; a job answers them together. */
  | { kind: 'held' }
  | { kind: 'reply'; reply: ChatReply; resultId?: string }

export const CHANNEL_LABELS: Record<ChannelName, string> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
}

/** Hours of silence after which a contact's next message starts a new chat, when unset. */
export const DEFAULT_CHANNEL_EXPIRY_HOURS = 4

/** Turns a session may take by itself past client-side pauses a channel cannot run. */
const MAX_AUTO_TURNS = 10

function stamp() {
  return DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
}

export function channelSettingsOf(bot: EngineBot, channel: ChannelName): ChannelSettings {
  const settings = resolveSettings(bot.content.settings)
  return (channel === 'telegram' ? settings.telegram : settings.whatsApp) ?? {}
}

/** True when this call is the first to take the delivery (the primary key decides). */
async function claimDelivery(channelId: string, deliveryId: string): Promise<boolean> {
  try {
    await db
      .table('channel_deliveries')
      .insert({ channel_id: channelId, delivery_id: deliveryId.slice(0, 191), created_at: stamp() })
    return true
  } catch (error) {
    // Each dialect words a duplicate key its own way: the row being there is what counts.
    const taken = await db
      .from('channel_deliveries')
      .where({ channel_id: channelId, delivery_id: deliveryId.slice(0, 191) })
      .first()
    if (taken) return false
    throw error
  }
}

async function forgetDelivery(channelId: string, deliveryId: string) {
  await db
    .from('channel_deliveries')
    .where({ channel_id: channelId, delivery_id: deliveryId.slice(0, 191) })
    .delete()
}

/** Deletes delivery ids older than three days: platforms stop retrying within hours. */
export async function pruneChannelDeliveries(at = new Date()) {
  const cutoff = DateTime.fromJSDate(new Date(at.getTime() - 3 * 86_400_000)).toFormat(
    db.connection().dialect.dateTimeFormat
  )
  const deleted = await db.from('channel_deliveries').where('created_at', '<', cutoff).delete()
  // Held messages answered long ago go with them.
  await pruneHeldMessages(at.getTime() - 3 * 86_400_000)
  return Number(Array.isArray(deleted) ? deleted[0] : deleted) || 0
}

async function rememberSession(channelId: string, contactId: string, sessionId: string) {
  const key = { channel_id: channelId, contact_id: contactId }
  const updated = await db
    .from('channel_contacts')
    .where(key)
    .update({ session_id: sessionId, updated_at: stamp() })
  const count = Number(Array.isArray(updated) ? (updated[0] ?? 0) : updated) || 0
  if (count === 0) {
    await db
      .table('channel_contacts')
      .insert({ ...key, session_id: sessionId, updated_at: stamp() })
  }
}

/**
 * The start condition compares the contact's first message: a comparison that names no
 * variable tests the message itself, one that names a variable tests that variable's
 * starting value. No comparison: every message starts the bot.
 */
export function startConditionHolds(
  condition: ConditionContent | undefined,
  bot: EngineBot,
  text: string
) {
  if (!condition?.comparisons?.length) return true
  const MESSAGE = '__channel_message'
  const variables: EngineVariable[] = [
    ...bot.content.variables.map((v) => ({ id: v.id, name: v.name, value: v.value ?? undefined })),
    { id: MESSAGE, name: MESSAGE, value: text },
  ]
  return evaluateCondition(
    {
      ...condition,
      comparisons: condition.comparisons.map((comparison) =>
        comparison.variableId ? comparison : { ...comparison, variableId: MESSAGE }
      ),
    },
    variables
  )
}

function expiryMsOf(settings: ChannelSettings) {
  const hours = Number(settings.sessionExpiryTimeout)
  return Math.round(
    (Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_CHANNEL_EXPIRY_HOURS) * 3_600_000
  )
}

/**
 * A channel cannot run the web's client-side actions (scripts, redirects, waits): a flow
 * paused on one goes on at once, so the contact gets everything up to the next question.
 */
async function pastPauses(
  output: TurnOutput,
  bot: EngineBot,
  sessionId: string,
  contact: IncomingMessage['contact']
): Promise<TurnOutput> {
  const messages: ChatMessage[] = [...output.reply.messages]
  let current = output
  for (let i = 0; i < MAX_AUTO_TURNS; i++) {
    const awaiting = current.state.awaiting
    if (!awaiting || awaiting.kind !== 'pause' || awaiting.awaitsWebhook) break
    const head = current.state.botsQueue[0]
    const headBot =
      head && head.botId !== bot.id ? ((await publishedBotById(head.botId))?.bot ?? bot) : bot
    const next = await continueChat(await publishedEnginePorts(), {
      state: current.state,
      sessionId,
      bot: headBot,
      contact,
    })
    // The effects of every turn are written together.
    next.effects.answers.unshift(...current.effects.answers)
    next.effects.timeouts.unshift(...current.effects.timeouts)
    next.effects.logs.unshift(...current.effects.logs)
    next.effects.newResults.unshift(...current.effects.newResults)
    for (const [id, update] of current.effects.results) {
      const later = next.effects.results.get(id)
      next.effects.results.set(
        id,
        later ? { ...update, ...later, hasStarted: update.hasStarted || later.hasStarted } : update
      )
    }
    messages.push(...next.reply.messages)
    current = next
  }
  return { ...current, reply: { ...current.reply, messages } }
}

export async function receiveChannelMessage(
  channel: BotChannel,
  message: IncomingMessage
): Promise<ChannelOutcome> {
  if (!(await claimDelivery(channel.id, message.deliveryId))) return { kind: 'duplicate' }
  try {
    return (await heldOutcome(channel, message)) ?? (await takeTurn(channel, message))
  } catch (error) {
    // No turn was written: the platform's retry must be able to take it.
    await forgetDelivery(channel.id, message.deliveryId)
    throw error
  }
}

/** The contact's session when it awaits an answer (not ended, not expired). */
async function liveSessionOf(channel: BotChannel, contactId: string) {
  const contactRow = await db
    .from('channel_contacts')
    .where({ channel_id: channel.id, contact_id: contactId })
    .select('session_id')
    .first()
  const session = contactRow ? await readSession(contactRow.session_id) : null
  const live =
    session &&
    session.state.awaiting &&
    !session.state.isPreview &&
    (!session.expiresAt || session.expiresAt.getTime() > Date.now())
  return live ? session : null
}

/**
 * Files a contact sends at once arrive as separate messages (a Telegram album, a burst of
 * WhatsApp files): a file for a question that takes files is held for a moment with the
 * ones that follow, and a job answers the question once with all of them (docs/channels.md,
 * "Several files at once"). A message arriving while some are held waits behind them, so
 * the contact's messages are taken in order. Null: the message is answered now.
 */
async function heldOutcome(
  channel: BotChannel,
  message: IncomingMessage
): Promise<ChannelOutcome | null> {
  if (message.groupId && (await albumTaken(channel.id, message.contactId, message.groupId))) {
    // The album was answered already: a late part must not answer the next question.
    return { kind: 'ignored', reason: 'A part of an album already answered' }
  }
  if (!(await hasHeldMessages(channel.id, message.contactId))) {
    if (!message.media) return null
    const session = await liveSessionOf(channel, message.contactId)
    if (!session || !(await takesFile(session.state, message.media.kind))) return null
  }
  await holdMessage(channel.id, message)
  return { kind: 'held' }
}

/**
 * One turn of the contact's conversation: the delivery is already taken (a held message's
 * job calls it with the files sent together).
 */
export async function takeTurn(
  channel: BotChannel,
  message: IncomingMessage
): Promise<ChannelOutcome> {
  const entry = await publishedBotById(channel.botId)
  if (!entry || entry.isArchived) return { kind: 'ignored', reason: 'The bot is not published' }
  const settings = channelSettingsOf(entry.bot, channel.channel)
  if (!settings.isEnabled) return { kind: 'ignored', reason: 'The channel is disabled' }
  const ports = await publishedEnginePorts()

  const session = await liveSessionOf(channel, message.contactId)
  if (session) {
    const head = session.state.botsQueue[0]
    const headBot = head ? (await publishedBotById(head.botId))?.bot : undefined
    if (headBot) {
      const parts = message.files ?? (message.media ? [message.media] : [])
      const files = parts.length > 0 ? await answerWithMedia(session.state, parts) : null
      if (files?.kind === 'refused') {
        // The question stays asked: the contact may send a smaller file or type instead.
        return { kind: 'reply', reply: { messages: [noticeOf(files.message)] } }
      }
      const output = await pastPauses(
        await continueChat(ports, {
          state: session.state,
          sessionId: session.id,
          bot: headBot,
          // An input of files only reads URLs from the text: the caption is not kept.
          message: files
            ? { text: files.filesOnly ? '' : message.text, attachedFileUrls: files.urls }
            : { text: message.text },
          contact: message.contact,
        }),
        headBot,
        session.id,
        message.contact
      )
      const written = await persistPublishedTurn(headBot, {
        sessionId: session.id,
        state: output.state,
        effects: output.effects,
      })
      if (!written)
        return {
          kind: 'reply',
          reply: { messages: [], chatLimitExceededError: CHAT_LIMIT_MESSAGE },
        }
      await scheduleReplyTimeout(channel, message.contactId, session.id, output)
      return { kind: 'reply', reply: output.reply, resultId: head?.resultId }
    }
  }

  // A new chat: the first message must pass the start condition.
  if (
    !startConditionHolds(
      settings.startCondition as ConditionContent | undefined,
      entry.bot,
      message.text
    )
  ) {
    return { kind: 'ignored', reason: 'The start condition does not hold' }
  }
  if (entry.isClosed) return { kind: 'ignored', reason: 'The bot is closed' }
  if ((await chatLimitOf(entry.bot)).reached) {
    return { kind: 'reply', reply: { messages: [], chatLimitExceededError: CHAT_LIMIT_MESSAGE } }
  }
  const sessionId = newId()
  const resultId = newId()
  const output = await pastPauses(
    await startChat(ports, {
      bot: entry.bot,
      sessionId,
      resultId,
      source: channel.channel,
      expiryTimeout: expiryMsOf(settings),
      contact: message.contact,
      message: { text: message.text },
      textBubbleContentFormat: 'richText',
    }),
    entry.bot,
    sessionId,
    message.contact
  )
  const update = output.effects.results.get(resultId)
  // The result says where the chat happened (its logs and its device details).
  output.effects.logs.unshift({
    resultId,
    status: 'info',
    description: `Chat started on ${CHANNEL_LABELS[channel.channel]}`,
    details: { channel: channel.channel, contact: message.contact ?? null },
  })
  const written = await persistPublishedTurn(entry.bot, {
    sessionId,
    state: output.state,
    effects: output.effects,
    isNewSession: true,
    newResult: {
      id: resultId,
      botId: entry.bot.id,
      sessionId,
      variables: update?.variables ?? [],
      isCompleted: update?.isCompleted,
      deviceDetails: { channel: channel.channel },
    },
  })
  if (!written) {
    return { kind: 'reply', reply: { messages: [], chatLimitExceededError: CHAT_LIMIT_MESSAGE } }
  }
  await rememberSession(channel.id, message.contactId, sessionId)
  await scheduleReplyTimeout(channel, message.contactId, sessionId, output)
  return { kind: 'reply', reply: output.reply, resultId }
}

export const REPLY_TIMEOUT_JOB = 'channels:reply-timeout'

export interface ReplyTimeoutPayload {
  channelId: string
  contactId: string
  sessionId: string
  blockId: string
  /** The deadline of that asking (epoch ms): a question asked again has another one. */
  deadline: number
}

/**
 * A question with a reply timeout was asked on a channel: a delayed job takes its "No
 * reply" path at the deadline unless the contact answered first (docs/bots.md, "Reply
 * timeout"). The job id names the asking, so a retried delivery queues it once.
 */
async function scheduleReplyTimeout(
  channel: BotChannel,
  contactId: string,
  sessionId: string,
  output: TurnOutput
) {
  const awaiting = output.state.awaiting
  if (!awaiting?.timeout || awaiting.kind !== 'input') return
  await dispatchReplyTimeout({
    channelId: channel.id,
    contactId,
    sessionId,
    blockId: awaiting.blockId,
    deadline: awaiting.timeout.deadline,
  })
}

export async function dispatchReplyTimeout(payload: ReplyTimeoutPayload) {
  await dispatch(REPLY_TIMEOUT_JOB, payload, {
    jobId: `reply-timeout:${payload.sessionId}:${payload.blockId}:${payload.deadline}`,
    delayMs: Math.max(0, payload.deadline - Date.now()),
    attempts: 3,
    backoffMs: 1000,
  })
}

/**
 * The reply timeout's turn on a channel: null when there is nothing to do (the contact
 * answered, files of theirs are held, the session ended or moved on, the bot went away).
 * The turn is written before the reply goes out, like every channel turn.
 */
export async function takeReplyTimeout(
  channel: BotChannel,
  payload: ReplyTimeoutPayload,
  now = Date.now()
): Promise<Extract<ChannelOutcome, { kind: 'reply' }> | null> {
  if (await hasHeldMessages(channel.id, payload.contactId)) return null
  const session = await readSession(payload.sessionId)
  if (!session || session.state.isPreview) return null
  if (session.expiresAt && session.expiresAt.getTime() <= now) return null
  const head = session.state.botsQueue[0]
  const headBot = head ? (await publishedBotById(head.botId))?.bot : undefined
  if (!headBot) return null
  const { status, output } = await timeoutChat(await publishedEnginePorts(), {
    state: session.state,
    sessionId: session.id,
    bot: headBot,
    expected: { blockId: payload.blockId, deadline: payload.deadline },
    now,
  })
  if (status.status !== 'taken') return null
  const turn = await pastPauses(output, headBot, session.id, undefined)
  const written = await persistPublishedTurn(headBot, {
    sessionId: session.id,
    state: turn.state,
    effects: turn.effects,
  })
  if (!written) return null
  await scheduleReplyTimeout(channel, payload.contactId, session.id, turn)
  return { kind: 'reply', reply: turn.reply, resultId: head?.resultId }
}

/**
 * Queues the reply timeouts of channel sessions still awaiting an answer: the in-process
 * queue keeps delayed jobs in memory, so a process that stopped left them without one.
 */
export async function resumeReplyTimeouts(now = new Date()) {
  const rows = await db
    .from('channel_contacts')
    .join('chat_sessions', 'chat_sessions.id', 'channel_contacts.session_id')
    .where(
      'chat_sessions.expires_at',
      '>',
      DateTime.fromJSDate(now).toFormat(db.connection().dialect.dateTimeFormat)
    )
    .select(
      'channel_contacts.channel_id as channel_id',
      'channel_contacts.contact_id as contact_id',
      'chat_sessions.id as session_id'
    )
  let queued = 0
  for (const row of rows) {
    const session = await readSession(row.session_id)
    const awaiting = session?.state.awaiting
    if (!awaiting?.timeout || awaiting.kind !== 'input') continue
    await dispatchReplyTimeout({
      channelId: row.channel_id,
      contactId: row.contact_id,
      sessionId: row.session_id,
      blockId: awaiting.blockId,
      deadline: awaiting.timeout.deadline,
    })
    queued++
  }
  return queued
}

function noticeOf(text: string): ChatMessage {
  return { id: newId(), type: 'text', content: textContent(text, 'richText') }
}

/** A message the platform refused to take is written in the result's logs. */
export async function logChannelError(resultId: string | undefined, description: string) {
  logger.warn({ resultId }, description)
  if (!resultId) return
  await db.table('result_logs').insert({
    result_id: resultId,
    status: 'error',
    description,
    details: null,
    created_at: stamp(),
  })
}
