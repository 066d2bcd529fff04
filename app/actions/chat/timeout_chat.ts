import { timeoutChat } from '#engine/bot/engine'
import type { ChatReply, TextBubbleContentFormat } from '#shared/chat/types'
import { persistTurn } from '#services/chat/chat_store'
import { capabilityTurn } from '#services/capability_stamp'
import { CHAT_LIMIT_MESSAGE, VisitorInfo, persistPublishedTurn } from '#services/chat/chat_runtime'
import { openSession } from '#actions/chat/continue_chat'

export type TimeoutChatOutcome =
  | { kind: 'reply'; reply: ChatReply }
  /** The deadline has not passed: nothing changed; the client may ask again later. */
  | { kind: 'early'; remainingMs: number }
  /** The session no longer awaits that question (answered, or the chat went on). */
  | { kind: 'stale' }

/**
 * The web viewer's reply timer fired on a question (docs/bots.md, "Reply timeout"): past
 * the deadline the server stored when it asked, the block's "No reply" path runs and its
 * reply is the answer; a timer that fires early or late changes nothing.
 */
export class TimeoutChat {
  async handle(
    sessionId: string,
    body: { blockId?: string; textBubbleContentFormat?: TextBubbleContentFormat },
    visitor: VisitorInfo = {},
    now = Date.now()
  ): Promise<TimeoutChatOutcome> {
    const { state, bot, ports, capabilityStamp } = await openSession(sessionId, visitor)
    const { status, output } = await timeoutChat(ports.forTurn(capabilityTurn(capabilityStamp)), {
      state,
      sessionId,
      bot,
      textBubbleContentFormat: body.textBubbleContentFormat,
      expected: body.blockId ? { blockId: body.blockId } : undefined,
      now,
    })
    if (status.status === 'early') return { kind: 'early', remainingMs: status.remainingMs }
    if (status.status === 'stale') return { kind: 'stale' }
    if (state.isPreview) {
      await persistTurn({
        sessionId,
        state: output.state,
        botId: bot.id,
        workspaceId: bot.workspaceId,
        effects: output.effects,
        sessionOnly: true,
      })
      return { kind: 'reply', reply: output.reply }
    }
    const written = await persistPublishedTurn(bot, {
      sessionId,
      state: output.state,
      effects: output.effects,
    })
    if (!written) {
      return { kind: 'reply', reply: { messages: [], chatLimitExceededError: CHAT_LIMIT_MESSAGE } }
    }
    return { kind: 'reply', reply: output.reply }
  }
}
