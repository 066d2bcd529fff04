import { pluginRegistry } from '#services/plugin_registry'
import { runPlugin, type VariableState } from '#services/runner_context'
import KnowledgeSource from '#models/knowledge_source'
import { CreateStore } from '#actions/knowledge/create_store'
import { AddSource } from '#actions/knowledge/add_source'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type { BotRunContext } from '#plugins/define_plugin'

/** A store named Handbook in the workspace, its text sources indexed. */
export async function addStore(
  user: Awaited<ReturnType<typeof createUser>>,
  workspace: Awaited<ReturnType<typeof firstWorkspaceOf>>,
  texts: { name: string; text: string }[]
) {
  const store = await new CreateStore().handle(user, workspace, { name: 'Handbook' })
  for (const { name, text } of texts) {
    const source = await new AddSource().handle(store, { type: 'TEXT', name, text })
    const deadline = Date.now() + 10_000
    while ((await KnowledgeSource.findOrFail(source.id)).status !== 'COMPLETED') {
      if (Date.now() > deadline) throw new Error('not indexed')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return store
}

export async function storeWithText(texts: { name: string; text: string }[]) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const store = await addStore(user, workspace, texts)
  return { user, workspace, store }
}

export const HANDBOOK = [
  { name: 'Holidays', text: 'Employees get twenty-five days of paid holiday each year.' },
  { name: 'Expenses', text: 'Travel expenses are refunded within ten days of the claim.' },
  { name: 'Parking', text: 'The car park opens at seven and closes at nine.' },
]

export async function run(
  pluginId: string,
  surface: 'bot' | 'workflow',
  options: Record<string, unknown>,
  who: { workspace: { id: string }; user: { id: string } },
  variables: VariableState[] = [],
  bot?: BotRunContext
) {
  const registry = await pluginRegistry()
  return runPlugin({
    registry,
    plugin: registry.get(pluginId)!,
    options,
    variables,
    workspaceId: who.workspace.id,
    ownerId: who.user.id,
    surface,
    bot,
  })
}
