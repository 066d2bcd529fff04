import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage } from '#shared/chat/types'
import type User from '#models/user'

export interface Owner {
  user: User
  token: string
  workspaceId: string
}

export async function owner(plan: User['plan'] = 'UNLIMITED'): Promise<Owner> {
  const user = await createUser()
  // Many bots are published here: no plan limit in the way.
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `chat-${Date.now()}-${Math.random()}`))
    .value
  return { user, token, workspaceId: workspace.id }
}

/** Imports (ids kept) and publishes a bot; returns its public id. */
export async function publish(
  client: ApiClient,
  who: Owner,
  raw: Record<string, any>,
  extra: Record<string, any> = {}
) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot: { ...raw, ...extra } })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)
  published.assertStatus(200)
  const bot = await Bot.findOrFail(id)
  return { id, publicId: bot.publicId! }
}

export const texts = (messages: ChatMessage[]) => messages.map(messageText)
