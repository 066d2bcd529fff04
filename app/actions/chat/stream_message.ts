import AppError from '#exceptions/app_error'
import { awaitedBlockOf, resultVariablesOf, type TurnEffects } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import type { SessionState } from '#engine/bot/state'
import { errorToLog, type LogEntry, type Streamer } from '#plugins/define_plugin'
import { AI_ERRORS, streamErrorOf } from '#sdk/ai'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import { pluginRegistry } from '#services/plugin_registry'
import { streamWithContext } from '#services/runner_context'
import { claimStream, persistTurn } from '#services/chat/chat_store'
import { openSession } from './continue_chat.js'
import { type VisitorInfo } from '#services/chat/chat_runtime'

/**
 * POST /api/v2/sessions/{sessionId}/streamMessage: the session is
 * paused on a block that returned streamReply(); its plugin's streamer runs with the
 * context the runner had and its text goes to the visitor chunk by chunk. The client then
 * calls continueChat with the full text, which the engine saves in the variable.
 */

/** The credits of the bot's owner are used up. */
export const AI_CREDITS_STATUS = 402

export type StreamOutcome =
  | { kind: 'error'; status: number; message: string }
  | {
      kind: 'stream'
      /** The text chunks; the variables the streamer set are saved before it ends. */
      chunks: AsyncGenerator<string>
    }

function isCreditLimit(error: unknown) {
  return (
    error instanceof Error &&
    ['AiCreditLimitExceededError', 'AiCallLimitExceededError'].includes(error.name)
  )
}

/** What the streamer changed, written to the session and the result (plus the logs). */
async function persist(
  sessionId: string,
  state: SessionState,
  bot: EngineBot,
  variablesSet: { id: string; value: unknown }[],
  logs: LogEntry[]
) {
  const head = state.botsQueue[0]
  for (const { id, value } of variablesSet) {
    const variable = head.variables.find((v) => v.id === id)
    if (variable) variable.value = value as any
  }
  const effects: TurnEffects = {
    answers: [],
    timeouts: [],
    logs: [],
    results: new Map(),
    newResults: [],
  }
  if (head.resultId) {
    for (const log of logs) {
      effects.logs.push({
        resultId: head.resultId,
        status: log.status,
        description: log.description,
        ...(log.details === undefined ? {} : { details: log.details }),
      })
    }
    if (variablesSet.length > 0) {
      effects.results.set(head.resultId, {
        botId: head.botId,
        variables: resultVariablesOf(head.variables),
      })
    }
  }
  await persistTurn({
    sessionId,
    state,
    botId: bot.id,
    workspaceId: bot.workspaceId,
    effects,
    sessionOnly: state.isPreview,
  })
}

export class StreamMessage {
  async handle(
    sessionId: string,
    visitor: VisitorInfo = {},
    signal?: AbortSignal
  ): Promise<StreamOutcome> {
    const { state, bot, ports } = await openSession(sessionId, visitor)
    const awaiting = state.awaiting
    const paused = awaiting?.kind === 'pause' && awaiting.streams
    const found = paused ? awaitedBlockOf(ports, { state, sessionId, bot }) : undefined
    if (!found) {
      throw new AppError('Nothing to stream', {
        status: 409,
        description: 'This session is not waiting for a streamed answer.',
      })
    }
    const { block, context } = found
    const registry = await pluginRegistry()
    const plugin = registry.get(block.type)
    const stored = (plugin?.storedIn === 'content' ? block.content : block.options) ?? {}
    const action =
      typeof (stored as Record<string, unknown>).action === 'string'
        ? ((stored as Record<string, unknown>).action as string)
        : undefined
    const streams = plugin
      ? await registry.exportOf<Record<string, Streamer<any, any>>>(plugin.id, 'streams')
      : undefined
    const streamer =
      (action ? streams?.[action] : undefined) ??
      (plugin ? await registry.exportOf<Streamer<any, any>>(plugin.id, 'stream') : undefined)
    if (!plugin || typeof streamer !== 'function') {
      throw new AppError('Nothing to stream', {
        status: 409,
        description: 'The paused block cannot stream its answer.',
      })
    }

    // One stream per pause: a second call (a reload, a loop) would bill the owner again.
    if (!(await claimStream(sessionId))) {
      throw new AppError('Nothing to stream', {
        status: 409,
        description: 'This session is not waiting for a streamed answer.',
      })
    }
    state.awaiting!.streamClaimed = true

    const logs: LogEntry[] = []
    const fail = async (status: number, message: string, details?: unknown) => {
      logs.push({ status: 'error', description: message, details })
      // Nothing was generated: the client may try again.
      state.awaiting!.streamClaimed = undefined
      await persist(sessionId, state, bot, [], logs)
      return { kind: 'error' as const, status, message }
    }

    const output = await streamWithContext(streamer, {
      plugin,
      options: stored as Record<string, unknown>,
      variables: state.botsQueue[0].variables,
      workspaceId: bot.workspaceId,
      ownerId: bot.ownerId,
      bot: context,
      signal,
    })
    if (!output) {
      // The credentials were not found: the key is missing as far as the provider goes.
      return fail(401, AI_ERRORS.streamApiKeyMissing, { logs })
    }
    const iterator = output.chunks[Symbol.asyncIterator]()
    let first: IteratorResult<string>
    try {
      first = await iterator.next()
    } catch (error) {
      logs.push(...output.logs.splice(0))
      if (isCreditLimit(error) || output.aiCreditLimitExceeded()) {
        return fail(AI_CREDITS_STATUS, AI_CREDIT_LIMIT_EXCEEDED_TEXT, errorToLog(error).details)
      }
      const { status, message } = streamErrorOf(error)
      return fail(status, message, errorToLog(error).details)
    }

    async function* chunks(): AsyncGenerator<string> {
      try {
        if (!first.done) {
          yield first.value
          for (;;) {
            const next = await iterator.next()
            if (next.done) break
            yield next.value
          }
        }
      } catch (error) {
        // Headers are gone: the visitor keeps what came; the result's logs say why.
        logs.push(errorToLog(error, AI_ERRORS.readStream))
      } finally {
        // Saved before the response ends, so the continueChat that follows sees them.
        await persist(sessionId, state, bot, output!.variablesSet(), [...output!.logs, ...logs])
      }
    }
    return { kind: 'stream', chunks: chunks() }
  }
}
