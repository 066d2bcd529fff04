import AppError from '#exceptions/app_error'
import type User from '#models/user'
import { findBotFor } from '#actions/bots/bot_access'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin } from '#services/runner_context'
import type { VariableState } from '#services/runner_context'

export interface TestBlockInput {
  type: string
  options: Record<string, unknown>
  /** Test values by variable id (a block's variablesForTest, or values the builder typed). */
  values?: Record<string, string>
}

/**
 * "Test the request" in the editor: runs one block's runner outside a chat, with the
 * bot's variables holding the given test values, and returns what it logged and which
 * variables it would set. Nothing is saved; the bot's credentials rules apply.
 */
export class TestBlock {
  async handle(user: User, botId: string, input: TestBlockInput) {
    const { bot } = await findBotFor(user, botId, 'write')
    const registry = await pluginRegistry()
    const plugin = registry.get(input.type)
    if (!plugin || !plugin.serves.includes('bot')) throw AppError.notFound('Plugin not found')
    const variables: VariableState[] = bot.variables.map((variable) => ({
      id: variable.id,
      name: variable.name,
      value: input.values?.[variable.id] ?? variable.value ?? null,
    }))
    const output = await runPlugin({
      registry,
      plugin,
      options: input.options,
      variables,
      workspaceId: bot.workspaceId,
      ownerId: bot.createdBy,
      // Outside a chat there is no `bot` context, but the block runs as a bot's.
      surface: 'bot',
      timeoutMs: 30_000,
    })
    const names = new Map(bot.variables.map((v) => [v.id, v.name]))
    const returned = (output.result as { variablesToSet?: typeof output.variablesSet } | undefined)
      ?.variablesToSet
    const set = [...output.variablesSet, ...(returned ?? [])]
    return {
      logs: output.logs,
      variablesSet: set.map(({ id, value }) => ({ id, name: names.get(id) ?? id, value })),
    }
  }
}
