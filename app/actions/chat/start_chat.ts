import AppError from '#exceptions/app_error'
import { newId } from '#services/ids'
import { startChat } from '#engine/bot/engine'
import { resolveSettings } from '#shared/bot/types'
import type { StartChatRequest, StartChatResponse } from '#shared/chat/types'
import { publishedBotByPublicId } from '#services/chat/bot_cache'
import { type NewResult } from '#services/chat/chat_store'
import db from '@adonisjs/lucid/services/db'
import { capabilityTurn } from '#services/capability_stamp'
import {
  CHAT_LIMIT_MESSAGE,
  VisitorInfo,
  publishedPorts,
  assertOrigin,
  startedBot,
  chatLimitOf,
  persistPublishedTurn,
} from '#services/chat/chat_runtime'

/** Variables of a remembered result, as prefilled values by name. */
async function rememberedVariables(resultId: string, botId: string) {
  const row = await db
    .from('results')
    .where({ id: resultId, bot_id: botId })
    .select('variables')
    .first()
  if (!row) return undefined
  const variables = JSON.parse(row.variables) as { name: string; value: unknown }[]
  return Object.fromEntries(variables.map((v) => [v.name, v.value]))
}

export class StartChat {
  async handle(
    publicId: string,
    body: StartChatRequest,
    visitor: VisitorInfo = {}
  ): Promise<StartChatResponse> {
    const entry = await publishedBotByPublicId(publicId)
    if (!entry || entry.isArchived) throw AppError.notFound('Bot not found')
    const settings = resolveSettings(entry.bot.content.settings)
    assertOrigin(settings.security?.allowedOrigins, visitor.origin)
    // The client's own geo wins over what a proxy's header says.
    const geo = (body.geo && Object.keys(body.geo).length > 0 ? body.geo : visitor.location) ?? null
    if (entry.isClosed) {
      throw new AppError('This bot is closed', {
        status: 403,
        description: 'It no longer accepts new answers.',
      })
    }
    if ((await chatLimitOf(entry.bot)).reached) {
      return {
        sessionId: '',
        ...startedBot(entry.bot),
        messages: [],
        chatLimitExceededError: CHAT_LIMIT_MESSAGE,
      }
    }

    // rememberUser: the visitor's earlier result goes on, with its variables.
    let resultId: string | undefined
    let prefilled = settings.general?.isInputPrefillEnabled ? body.prefilledVariables : undefined
    if (body.resultId && settings.general?.rememberUser?.isEnabled) {
      const remembered = await rememberedVariables(body.resultId, entry.bot.id)
      if (remembered) {
        resultId = body.resultId
        prefilled = { ...remembered, ...prefilled }
      }
    }
    // Hidden variables set by the embed's prefilledVariables are allowed even without
    // input prefill: it only decides whether inputs show the values.
    if (!settings.general?.isInputPrefillEnabled && body.prefilledVariables) {
      prefilled = { ...prefilled, ...body.prefilledVariables }
    }
    const isNewResult = !resultId
    resultId ??= newId()
    const sessionId = newId()
    // One capability turn: its blocks' plan checks share one read of the stamp.
    const ports = (await publishedPorts()).forTurn(capabilityTurn())
    const output = await startChat(ports, {
      bot: entry.bot,
      sessionId,
      resultId,
      prefilledVariables: prefilled,
      textBubbleContentFormat: body.textBubbleContentFormat,
      isOnlyRegistering: body.isOnlyRegistering,
      message: body.message ? { text: body.message } : undefined,
      allowedOrigins: settings.security?.allowedOrigins?.length
        ? settings.security.allowedOrigins
        : undefined,
      isStreamEnabled: body.isStreamEnabled,
      source: body.source,
      languageWishes: { requested: body.language, acceptLanguage: visitor.acceptLanguage },
    })
    let newResult: NewResult | undefined
    if (isNewResult) {
      const update = output.effects.results.get(resultId)
      newResult = {
        id: resultId,
        botId: entry.bot.id,
        sessionId,
        variables: update?.variables ?? [],
        isCompleted: update?.isCompleted,
        deviceDetails: visitor.deviceDetails,
        location: geo as Record<string, unknown> | null,
        language: output.state.language ?? null,
      }
      // Inserted as it is now: no second write unless the chat also started (counted).
      if (update && !update.hasStarted) output.effects.results.delete(resultId)
    }
    const written = await persistPublishedTurn(entry.bot, {
      sessionId,
      state: output.state,
      effects: output.effects,
      isNewSession: true,
      newResult,
    })
    if (!written) {
      return {
        sessionId: '',
        ...startedBot(entry.bot),
        messages: [],
        chatLimitExceededError: CHAT_LIMIT_MESSAGE,
      }
    }
    return { sessionId, resultId, ...startedBot(entry.bot), geo, ...output.reply }
  }
}
