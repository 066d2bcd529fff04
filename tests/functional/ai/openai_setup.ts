import { pluginRegistry } from '#services/plugin_registry'
import {
  buildContext,
  createVariableStore,
  credentialsFor as contextCredentials,
  substitutedOptions,
} from '#services/runner_context'
import { aiPort } from '#services/ai/credits'
import type { LogEntry, Streamer } from '#plugins/define_plugin'
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
  type OpenAiStandInOptions,
} from '#tests/stand_ins/openai'
import { VARIABLES, credentialsFor, newOwner, type Owner } from './openai_fixtures.js'

export const KEY = 'sk-stand-in'

export async function setup(
  cleanup: (fn: () => Promise<void>) => void,
  options: Partial<OpenAiStandInOptions> = {}
) {
  const standIn = await startOpenAiStandIn({ apiKey: KEY, ...options })
  cleanup(() => standIn.close())
  const owner = await newOwner()
  const credentialsId = await credentialsFor(owner, 'openai', {
    apiKey: KEY,
    baseUrl: standIn.baseUrl,
  })
  return { standIn, owner, credentialsId }
}

export function chatOptions(
  credentialsId: string | undefined,
  extra: Record<string, unknown> = {}
) {
  return {
    action: 'Create chat completion',
    credentialsId,
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'user' },
      { role: 'user', content: 'Weather in {{City}}?' },
    ],
    responseMapping: [
      { id: 'm1', item: 'Message content', variableId: 'vAnswer' },
      { id: 'm2', item: 'Total tokens', variableId: 'vTokens' },
    ],
    ...extra,
  }
}

/** The context the stream endpoint gives a streamer (see streamWithContext). */
export async function streamerContext(owner: Owner, options: Record<string, unknown>) {
  const registry = await pluginRegistry()
  const plugin = registry.get('openai')!
  const input = {
    plugin,
    options,
    variables: VARIABLES,
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
  }
  const logs: LogEntry[] = []
  const { store, changes } = createVariableStore(VARIABLES)
  const credentials = (await contextCredentials(input, logs)) ?? {}
  const ai = aiPort({ ownerId: owner.user.id, workspaceId: owner.workspace.id, source: 'openai' })
  const context = buildContext(input, await substitutedOptions(input), credentials, store, logs, ai)
  const streams = await registry.exportOf<Record<string, Streamer<any, any>>>('openai', 'streams')
  return { context, changes, streamer: streams!['Create chat completion'] }
}

export async function collect(iterable: AsyncIterable<string>) {
  const chunks: string[] = []
  for await (const chunk of iterable) chunks.push(chunk)
  return chunks
}

export function chatCalls(standIn: OpenAiStandIn) {
  return standIn.callsTo('/v1/chat/completions')
}
