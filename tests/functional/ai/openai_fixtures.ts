import AiUsage from '#models/ai_usage'
import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import type { BotRunContext } from '#plugins/define_plugin'
import type { Owner } from './provider_fixtures.js'

/**
 * Runs OpenAI-compatible provider blocks the way the chat engine does (registry, runner
 * context with real credentials, HTTP, storage, sandbox and AI credits) against the stand-in.
 */

// Owners and their saved credentials are the same for every provider's tests.
export { newOwner, type Owner } from './provider_fixtures.js'
export { saveCredentials as credentialsFor } from './provider_fixtures.js'

export const VARIABLES: VariableState[] = [
  { id: 'vAnswer', name: 'Answer' },
  { id: 'vTokens', name: 'Tokens' },
  { id: 'vUrl', name: 'Url' },
  { id: 'vDialogue', name: 'Dialogue', value: ['Hi', 'Hello! How can I help?', 'Tell me a joke'] },
  { id: 'vCity', name: 'City', value: 'Paris' },
]

/** A bot context whose client streams to `streamTo` (canStreamTo). */
export function botContext(streamTo?: string): BotRunContext {
  return {
    block: { id: 'b1', type: 'openai', groupId: 'g1' },
    botId: 'bot1',
    sessionId: 'session1',
    isPreview: false,
    environment: 'web',
    textBubbleContentFormat: 'richText',
    transcript: () => [],
    evaluateCondition: () => false,
    appUrl: 'http://localhost',
    canStreamTo: (variableId) => !!streamTo && variableId === streamTo,
  }
}

export async function runBlock(
  owner: Owner,
  type: string,
  options: Record<string, unknown>,
  extra: { variables?: VariableState[]; bot?: BotRunContext } = {}
) {
  const registry = await pluginRegistry()
  const plugin = registry.get(type)
  if (!plugin) throw new Error(`no plugin ${type}`)
  const output = await runPlugin({
    registry,
    plugin,
    options,
    variables: extra.variables ?? VARIABLES,
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
    bot: extra.bot,
  })
  const value = (id: string) => output.variablesSet.find((entry) => entry.id === id)?.value
  return { ...output, value }
}

export async function usagesOf(owner: Owner) {
  return AiUsage.query().where('accountId', owner.user.id).orderBy('id', 'asc')
}

/** Text of every log, for assertions on the words builders read. */
export function descriptions(logs: { description: string }[]) {
  return logs.map((log) => log.description)
}
