import type { VariableState } from '#services/runner_context'
import { startAnthropicStandIn } from '#tests/stand_ins/anthropic'
import { newOwner, saveCredentials } from './provider_fixtures.js'

export const KEY = 'sk-ant-stand-in'
export const ACTION = 'Create Chat Message'
export const HAIKU = 'claude-3-haiku-20240307'

export const VARIABLES: VariableState[] = [
  { id: 'vQuestion', name: 'Question', value: 'What is 2 + 2?' },
  { id: 'vAnswer', name: 'Answer' },
  { id: 'vDialogue', name: 'Dialogue', value: ['Hi', 'Hello! How can I help?', 'Be quick'] },
]

export type StandInOptions = Parameters<typeof startAnthropicStandIn>[0]

export async function setup(
  cleanup: (fn: () => Promise<void> | void) => void,
  options: Partial<StandInOptions> = {}
) {
  const standIn = await startAnthropicStandIn({ apiKey: KEY, ...options })
  cleanup(() => standIn.close())
  const owner = await newOwner()
  const credentialsId = await saveCredentials(owner, 'anthropic', {
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
    action: ACTION,
    credentialsId,
    model: HAIKU,
    systemMessage: 'You are terse.',
    messages: [
      { role: 'system', content: 'Answer in English.' },
      { role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'user' },
      { role: 'user', content: '{{Question}}' },
    ],
    responseMapping: [{ id: 'm1', item: 'Message Content', variableId: 'vAnswer' }],
    ...extra,
  }
}

export const WEATHER_TOOL = {
  name: 'getWeather',
  description: 'The weather of a city',
  parameters: [{ name: 'city', type: 'string', required: true }],
  code: 'return city + " is sunny"',
}
