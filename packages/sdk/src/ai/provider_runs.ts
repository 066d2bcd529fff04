import type { LogEntry, RunnerVariables, VariableValue } from '../runner_types.js'
import type { ResponseMappingEntry } from '../fields.js'
import { AI_ERRORS, ProviderError, chatErrorLog } from './errors.js'

/**
 * Small pieces every AI provider runner needs around its provider call: response mapping,
 * numeric options that may have come from a variable, and telling the credit guard's
 * refusal apart from a provider failure. Server only.
 */

/**
 * The credit port refuses with these errors (app/services/ai/credits.ts, no credit left or
 * no AI call of the month left: app/services/ai/ai_calls.ts). They must reach
 * the runner context untouched, so the chat reply carries aiCreditLimitExceededError; a
 * runner that logged them as a provider failure would hide why the bot stopped answering.
 * Matched by name: plugins do not import server services.
 */
const CREDIT_ERRORS = new Set([
  'AiCreditLimitExceededError',
  'AiCallLimitExceededError',
  'AiAccountNotFoundError',
])

export function isAiCreditError(error: unknown): boolean {
  return error instanceof Error && CREDIT_ERRORS.has(error.name)
}

/** What a failed provider call becomes: credit refusals are rethrown, the rest logged. */
export function providerFailureLog(error: unknown): LogEntry {
  if (isAiCreditError(error)) throw error
  return chatErrorLog(error)
}

/** Sets every variable mapped to `item` (an item may be mapped to several variables). */
export function setMapped(
  variables: RunnerVariables,
  mapping: readonly ResponseMappingEntry[] | undefined,
  item: string,
  value: VariableValue
) {
  for (const entry of mapping ?? []) {
    if (entry.item === item && entry.variableId) variables.set(entry.variableId, value)
  }
}

/** The variable the first mapping of `item` writes, if any. */
export function mappedVariableId(
  mapping: readonly ResponseMappingEntry[] | undefined,
  item: string
): string | undefined {
  return (mapping ?? []).find((entry) => entry.item === item && entry.variableId)?.variableId
}

/**
 * A number option: stored as a number, or as text once a {{Variable}} was substituted.
 * Empty or not a number gives the fallback.
 */
export function numberOption(value: unknown, fallback: number): number
export function numberOption(value: unknown, fallback?: number): number | undefined
export function numberOption(value: unknown, fallback?: number) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value)
    return Number.isFinite(parsed) ? parsed : fallback
  }
  return fallback
}

/**
 * What a failed stream throws (the Anthropic and Mistral wording):
 * 401 'API key missing', 400 'model not found', otherwise the provider's status (500 when
 * there is none) with 'An error occured while generating the stream'. The provider's own
 * words stay in the error's body for the logs.
 */
export function streamFailure(error: unknown): ProviderError {
  if (!(error instanceof ProviderError)) {
    return new ProviderError(500, { message: (error as Error)?.message }, AI_ERRORS.stream)
  }
  if (error.status === 401) return new ProviderError(401, error.body, AI_ERRORS.streamApiKeyMissing)
  if (error.status === 404 || (error.status === 400 && /model/i.test(error.message)))
    return new ProviderError(400, error.body, AI_ERRORS.streamModelNotFound)
  return new ProviderError(error.status, error.body, AI_ERRORS.stream)
}
