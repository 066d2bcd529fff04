import { DateTime } from 'luxon'
import type { ApiClient } from '@japa/api-client'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import env from '#start/env'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import Bot from '#models/bot'
import Credential from '#models/credential'
import DevMail from '#models/dev_mail'
import Workspace from '#models/workspace'
import type User from '#models/user'
import { encryptCredentials } from '#plugins/vault'
import { newId } from '#services/ids'
import { workspacesOf } from '#services/workspace_access'

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${newId()}@example.com`
}

/** A fresh user (with their first workspace) for one test. */
export async function createUser(overrides: { email?: string; name?: string | null } = {}) {
  const email = overrides.email ?? uniqueEmail()
  const { user } = await new FindOrCreateUser().handle(email, {
    name: overrides.name === undefined ? 'Test User' : overrides.name,
  })
  return user
}

export async function firstWorkspaceOf(user: User): Promise<Workspace> {
  const [first] = await workspacesOf(user)
  return (await Workspace.find(first.id))!
}

/**
 * Puts a person on a plan as an admin does (administer_plans.ts setPlan): their account
 * (how many workspaces they may create) and every workspace they created, where the
 * workspace's plan is what applies (planFor).
 */
export async function setUserPlan(user: User, plan: User['plan'], endsInDays = 30) {
  const endsAt = DateTime.now().plus({ days: endsInDays })
  user.plan = plan
  user.planEndsAt = endsAt
  await user.save()
  const created = await Workspace.query().where('created_by', user.id)
  for (const workspace of created) {
    workspace.plan = plan
    workspace.planEndsAt = endsAt
    await workspace.save()
  }
}

/** The newest sign-in link mailed to this address (dev mailbox). */
export async function lastMagicLink(email: string) {
  const mail = await DevMail.query()
    .where('to', email.toLowerCase())
    .orderBy('id', 'desc')
    .firstOrFail()
  const match = /https?:\/\/\S+\/auth\/magic\/([a-f0-9]+)/.exec(mail.text)
  if (!match) throw new Error(`no sign-in link in the last mail to ${email}`)
  return { url: match[0], path: new URL(match[0]).pathname, token: match[1], mail }
}

/**
 * A workspace credential written as the app stores it (encrypted), around the save
 * endpoint's checks: a test's stand-in or database address, or a record from before a rule.
 */
export async function storeCredential(
  owner: { workspaceId: string; userId: string },
  record: { type: string; name?: string; id?: string; data: object }
) {
  const encrypted = encryptCredentials(record.data, env.get('ENCRYPTION_SECRET'))
  return Credential.create({
    ...(record.id ? { id: record.id } : {}),
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    type: record.type,
    name: record.name ?? record.type,
    iv: encrypted.iv,
    data: encrypted.data,
  })
}

/** An empty bot with these variables: what the editor's block Test runs against. */
export function botWithVariables(
  owner: { workspaceId: string; userId: string },
  variables: { id: string; name: string }[],
  name = 'Orders'
) {
  return Bot.create({
    workspaceId: owner.workspaceId,
    createdBy: owner.userId,
    name,
    version: '6',
    groups: [],
    events: [],
    edges: [],
    variables,
    theme: {},
    settings: {},
    isArchived: false,
    isClosed: false,
  } as any)
}

/**
 * Imports a bot through the REST API for a new UNLIMITED account and publishes it, as a
 * script would; returns its public id.
 */
export async function publishThroughApi(client: ApiClient, bot: Record<string, unknown>) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `published-${Date.now()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

/**
 * A Typebot v6 export with one group, reached from the start event: the smallest bot a test can
 * import, publish and chat through.
 */
export function oneGroupExport(
  id: string,
  name: string,
  blocks: Record<string, unknown>[],
  variables: { id: string; name: string }[] = []
) {
  return {
    version: '6',
    id,
    name,
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    groups: [{ id: 'g1', title: 'Hello', graphCoordinates: { x: 200, y: 0 }, blocks }],
    edges: [{ id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables,
    theme: {},
    settings: {},
  }
}

/** A text bubble block saying `text`. */
export function textBubble(id: string, text: string) {
  return { id, type: 'text', content: { richText: [{ type: 'p', children: [{ text }] }] } }
}
