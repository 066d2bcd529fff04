import type User from '#models/user'
import Credential from '#models/credential'
import AppError from '#exceptions/app_error'
import { listCredentials, readCredentials } from '#services/credentials'
import type { ChatModelConfig, ChatModelFactory } from '#sdk/ai'
import { MODEL_NODE_ACTION } from '#sdk/ai_fields'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import type { CopilotCredentialDto } from '#shared/copilot'

/**
 * Which AI provider the copilot talks through (docs/copilot.md "Provider"): any credential
 * of the workspace the builder may use whose plugin lends a chat model to workflow agents
 * (its runner exports `chatModel`, the OpenAI-compatible protocol). The core names no
 * provider: a provider plugin added later is usable at once.
 */

/** The model a provider's agent Model node starts with (its 'Chat model' action default). */
function defaultModelOf(plugin: AnyPlugin): string | undefined {
  const field = plugin.actions?.[MODEL_NODE_ACTION]?.options?.model as
    { defaultValue?: unknown } | undefined
  return typeof field?.defaultValue === 'string' && field.defaultValue
    ? field.defaultValue
    : undefined
}

async function lendsChatModel(registry: PluginRegistry, plugin: AnyPlugin) {
  return !!(await registry.exportOf<ChatModelFactory>(plugin.id, 'chatModel'))
}

export async function copilotCredentials(
  registry: PluginRegistry,
  user: User,
  workspaceId: string
): Promise<CopilotCredentialDto[]> {
  const usable: CopilotCredentialDto[] = []
  for (const record of await listCredentials(user, workspaceId)) {
    const plugin = registry.get(record.type)
    const model = plugin && defaultModelOf(plugin)
    if (!plugin || !model || !(await lendsChatModel(registry, plugin))) continue
    usable.push({
      id: record.id,
      name: record.name,
      type: record.type,
      provider: plugin.name,
      model,
    })
  }
  return usable
}

export const NO_PROVIDER_MESSAGE =
  'Add an AI provider credential (OpenAI or an OpenAI-compatible server) in Credentials to use the copilot.'

/** The endpoint and model of the chosen credential (the first usable one by default). */
export async function copilotModel(
  registry: PluginRegistry,
  user: User,
  workspaceId: string,
  credentialsId?: string | null
): Promise<{ config: ChatModelConfig; credential: CopilotCredentialDto }> {
  const usable = await copilotCredentials(registry, user, workspaceId)
  const credential = credentialsId
    ? usable.find((candidate) => candidate.id === credentialsId)
    : usable[0]
  if (!credential) {
    throw new AppError(credentialsId ? 'Credentials not found' : 'No AI provider', {
      status: 422,
      code: 'E_COPILOT_NO_PROVIDER',
      description: NO_PROVIDER_MESSAGE,
      field: 'credentialsId',
    })
  }
  const record = await Credential.findOrFail(credential.id)
  const factory = (await registry.exportOf<ChatModelFactory>(credential.type, 'chatModel'))!
  // The factory reads the node's options and credentials only (chat_model.ts).
  const config = await factory({
    options: { model: credential.model },
    credentials: readCredentials(record),
  } as never)
  return { config, credential }
}
