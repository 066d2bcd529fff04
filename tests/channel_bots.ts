import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type User from '#models/user'

export interface Owner {
  user: User
  token: string
  workspaceId: string
}

export async function owner(plan: User['plan'] = 'UNLIMITED'): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `ch-${Date.now()}-${Math.random()}`)).value
  return { user, token, workspaceId: workspace.id }
}

export const p = (...children: Record<string, unknown>[]) => ({ type: 'p', children })

/** Greeting (bold, link), an image, an e-mail question, a plan among four, a closing text. */
export function shopBot(settings: Record<string, unknown>) {
  return {
    version: '6',
    name: 'Shop',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          {
            id: 'welcome',
            type: 'text',
            content: {
              richText: [
                p(
                  { text: 'Welcome to ' },
                  { text: 'Acme', bold: true },
                  { text: ', see ' },
                  { type: 'a', url: 'https://acme.test/', children: [{ text: 'our site' }] }
                ),
              ],
            },
          },
          { id: 'logo', type: 'image', content: { url: 'https://acme.test/logo.png' } },
          { id: 'ask-mail', type: 'text', content: { richText: [p({ text: 'Your e-mail?' })] } },
          {
            id: 'mail',
            type: 'email input',
            options: { variableId: 'v_mail', retryMessageContent: 'That is not an e-mail.' },
          },
          { id: 'ask-plan', type: 'text', content: { richText: [p({ text: 'Which plan?' })] } },
          {
            id: 'plan',
            type: 'choice input',
            options: { variableId: 'v_plan' },
            items: [
              { id: 'it_free', content: 'Free' },
              { id: 'it_pro', content: 'Pro' },
              { id: 'it_team', content: 'Team' },
              { id: 'it_ent', content: 'Enterprise with a long name' },
            ],
          },
          {
            id: 'bye',
            type: 'text',
            content: { richText: [p({ text: 'You chose {{Plan}}, {{Mail}}.' })] },
          },
        ],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: -100 }, outgoingEdgeId: 'e0' },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_mail', name: 'Mail' },
      { id: 'v_plan', name: 'Plan' },
    ],
    theme: {},
    settings,
  }
}

export async function importBot(client: ApiClient, who: Owner, settings: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot: shopBot(settings) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  return imported.body().bot.id as string
}

export async function publish(client: ApiClient, who: Owner, botId: string) {
  ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(who.token)).assertStatus(200)
}

export async function resultsOf(botId: string) {
  return db.from('results').where('bot_id', botId).orderBy('created_at')
}
