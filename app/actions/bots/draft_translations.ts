import logger from '@adonisjs/core/services/logger'
import type Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { aiPort, AiCreditLimitExceededError } from '#services/ai/credits'
import { copilotModel } from '#services/copilot/provider'
import { credentialEgress } from '#services/egress'
import { BlockedRequestError, RequestTimeoutError, createGuardedHttp } from '#plugins/guarded_http'
import { ModelUnreachableError, ProviderError, chatWithTools } from '#sdk/ai'
import { languagesOf, normalizeTag } from '#shared/bot/translations'
import type {
  DraftTranslationsRequest,
  DraftTranslationsResponse,
} from '#shared/bot/translation_drafts'

/**
 * Drafts a language's missing texts with the workspace's AI credential (docs/bots.md
 * "Languages"): the same provider and model the copilot talks through
 * (app/services/copilot/provider.ts), the call counted in the workspace's AI usage. Nothing
 * is saved here: the editor writes the drafts as ordinary, undoable edits for the builder
 * to review.
 */

export const NO_PROVIDER_FOR_DRAFTS =
  'Add an AI provider credential (OpenAI or an OpenAI-compatible server) in Credentials to draft translations with AI.'

function languageName(tag: string) {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag)
    return name && name !== tag ? `${name} (${tag})` : tag
  } catch {
    return tag
  }
}

function instructions(from: string, to: string) {
  return [
    `You translate the texts of a chatbot from ${languageName(from)} to ${languageName(to)}.`,
    'The user message is a JSON object: each key names a text, each value is the text to translate.',
    'Answer with one JSON object only, with the same keys and the translations as values, and nothing around it.',
    'Keep every {{variable}} placeholder, URL, e-mail address, emoji and line break exactly as written. Translate the meaning in the tone of the original; keep it as short.',
  ].join('\n')
}

/** The JSON object in a model's answer, with or without a fenced code block around it. */
export function parseDrafts(answer: string, keys: readonly string[]): Record<string, string> {
  const start = answer.indexOf('{')
  const end = answer.lastIndexOf('}')
  if (start < 0 || end <= start) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.slice(start, end + 1))
  } catch {
    return {}
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
  const drafts: Record<string, string> = {}
  for (const key of keys) {
    const value = (parsed as Record<string, unknown>)[key]
    if (typeof value === 'string' && value.trim()) drafts[key] = value.trim()
  }
  return drafts
}

function failure(error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof AiCreditLimitExceededError) {
    return new AppError('No AI credits left', { status: 402, code: 'E_AI_CREDITS' })
  }
  let cause: string | undefined
  if (error instanceof ProviderError)
    cause = `the model server answered ${error.status}: ${error.message}`
  else if (
    error instanceof BlockedRequestError ||
    error instanceof RequestTimeoutError ||
    error instanceof ModelUnreachableError
  )
    cause = error.message
  if (!cause) throw error
  return new AppError('The AI provider could not draft the translations', {
    status: 502,
    code: 'E_TRANSLATION_DRAFT_FAILED',
    description: cause.length > 300 ? `${cause.slice(0, 300)}…` : cause,
  })
}

export class DraftTranslations {
  async handle(
    user: User,
    workspace: Workspace,
    bot: Bot,
    input: DraftTranslationsRequest
  ): Promise<DraftTranslationsResponse> {
    const registry = await pluginRegistry()
    let config
    try {
      ;({ config } = await copilotModel(registry, user, workspace.id, input.credentialsId))
    } catch (error) {
      if (error instanceof AppError && error.code === 'E_COPILOT_NO_PROVIDER') {
        throw new AppError(error.title, {
          status: 422,
          code: 'E_COPILOT_NO_PROVIDER',
          description: NO_PROVIDER_FOR_DRAFTS,
          field: 'credentialsId',
        })
      }
      throw error
    }
    const from = languagesOf(bot.settings)?.default ?? 'en'
    const to = normalizeTag(input.language)
    const texts = Object.fromEntries(input.texts.map((text) => [text.key, text.source]))
    try {
      const result = await chatWithTools({
        http: createGuardedHttp(credentialEgress()),
        endpoint: config.endpoint,
        ai: aiPort({ ownerId: user.id, workspaceId: workspace.id, source: 'translations' }),
        // No tools: one completion.
        maxRounds: 1,
        request: {
          model: config.model,
          ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
          messages: [
            { role: 'system', content: instructions(from, to) },
            { role: 'user', content: JSON.stringify(texts) },
          ],
        },
        execute: async () => JSON.stringify({ error: 'No tools here.' }),
      })
      const content = result.message.content
      return { drafts: parseDrafts(typeof content === 'string' ? content : '', Object.keys(texts)) }
    } catch (error) {
      logger.warn({ err: error }, 'translations: the model call failed')
      throw failure(error)
    }
  }
}
