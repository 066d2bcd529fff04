import logger from '@adonisjs/core/services/logger'
import BotChannel from '#models/bot_channel'
import { defineJob } from '#queue/queue'
import { RetryLater } from '#queue/types'
import { newId } from '#services/ids'
import {
  REPLY_TIMEOUT_JOB,
  takeReplyTimeout,
  takeTurn,
  type IncomingMessage,
  type ReplyTimeoutPayload,
} from './conversation.js'
import {
  HELD_MESSAGES_JOB,
  claimHeldMessages,
  dropHeldMessages,
  heldWaitMs,
  incomingOfHeld,
  markHeldDone,
  releaseHeldMessages,
  turnsOf,
  type HeldRow,
} from './held_messages.js'
import { channelDownloader, sendChannelReply } from './replies.js'

/**
 * The job answering a channel contact's held messages (docs/channels.md, "Several files at
 * once"); registered by start/channels.ts.
 */

interface Payload {
  channelId: string
  contactId: string
}

/** Consecutive files as one message: their captions together, every file in `files`. */
function messageOfTurn(
  turn: HeldRow[],
  contactId: string,
  download: ReturnType<typeof channelDownloader>
): IncomingMessage {
  const messages = turn.map((row) => incomingOfHeld(row.message, contactId, download))
  if (messages.length === 1 && !messages[0].media) return messages[0]
  return {
    ...messages[0],
    text: messages
      .map((message) => message.text.trim())
      .filter(Boolean)
      .join('\n'),
    media: undefined,
    files: messages.flatMap((message) => (message.media ? [message.media] : [])),
  }
}

export async function answerHeldMessages({ channelId, contactId }: Payload) {
  const record = await BotChannel.find(channelId)
  if (!record) return
  const wait = await heldWaitMs(channelId, contactId)
  if (wait === null) return
  // Another part may still come: the same job waits again rather than answering a part.
  if (wait > 0) throw new RetryLater(wait)
  const claim = newId()
  const rows = await claimHeldMessages(channelId, contactId, claim)
  const download = channelDownloader(record)
  for (const turn of turnsOf(rows)) {
    let outcome
    try {
      outcome = await takeTurn(record, messageOfTurn(turn, contactId, download))
    } catch (error) {
      // Nothing of this turn was written: the job's next attempt answers it again.
      await releaseHeldMessages(claim)
      throw error
    }
    await markHeldDone(turn.map((row) => row.id))
    if (outcome.kind === 'reply') await sendChannelReply(record, contactId, outcome)
  }
}

export const heldMessagesJob = defineJob<Payload>({
  name: HELD_MESSAGES_JOB,
  concurrency: 10,
  handler: (payload) => answerHeldMessages(payload),
  onFailed: async (payload, error) => {
    // Held for good, they would hold every later message of the contact.
    logger.error({ err: error, ...payload }, 'Held channel messages could not be answered')
    await dropHeldMessages(payload.channelId, payload.contactId)
  },
})

/**
 * A question's reply timeout on a channel (docs/bots.md, "Reply timeout"): at its deadline,
 * unless the contact answered, the "No reply" path runs and its reply is sent.
 */
export async function answerReplyTimeout(payload: ReplyTimeoutPayload) {
  const record = await BotChannel.find(payload.channelId)
  if (!record) return
  // A timer may fire a little early (clock of another worker): the job waits the rest.
  const early = payload.deadline - Date.now()
  if (early > 0) throw new RetryLater(early)
  const outcome = await takeReplyTimeout(record, payload)
  if (outcome) await sendChannelReply(record, payload.contactId, outcome)
}

export const replyTimeoutJob = defineJob<ReplyTimeoutPayload>({
  name: REPLY_TIMEOUT_JOB,
  concurrency: 10,
  handler: (payload) => answerReplyTimeout(payload),
  onFailed: (payload, error) => {
    logger.error({ err: error, ...payload }, 'A channel reply timeout could not be taken')
  },
})
