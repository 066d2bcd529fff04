import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import AiUsage from '#models/ai_usage'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateCredential } from '#actions/credentials/create_credential'
import { pluginRegistry } from '#services/plugin_registry'
import {
  buildContext,
  createVariableStore,
  credentialsFor as contextCredentials,
  runPlugin,
  substitutedOptions,
  type VariableState,
} from '#services/runner_context'
import { aiPort } from '#services/ai/credits'
import type { BotRunContext, Fetcher, LogEntry, Streamer } from '#plugins/define_plugin'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Runs provider blocks (Anthropic, Mistral, Dify) the way the chat engine and the stream
 * endpoint do: the registry finds the runner, streamer or fetcher, the runner context
 * brings real decrypted credentials, guarded HTTP, the sandbox and AI credits.
 */

export interface Owner {
  user: User
  workspace: Workspace
}

export async function newOwner(): Promise<Owner> {
  const user = await createUser()
  return { user, workspace: await firstWorkspaceOf(user) }
}

export async function saveCredentials(owner: Owner, type: string, data: Record<string, unknown>) {
  const record = await new CreateCredential().handle(owner.user, owner.workspace, {
    type,
    name: `${type} key`,
    data,
  })
  return record.id
}

/** A chat whose client streams to `streamTo` (what canStreamTo answers). */
export function botContext(type: string, streamTo?: string): BotRunContext {
  return {
    block: { id: 'b1', type, groupId: 'g1' },
    botId: 'bot1',
    sessionId: 'session1',
    resultId: 'result1',
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
  variables: VariableState[],
  bot?: BotRunContext
) {
  const registry = await pluginRegistry()
  const plugin = registry.get(type)
  if (!plugin) throw new Error(`no plugin ${type}`)
  const output = await runPlugin({
    registry,
    plugin,
    options,
    variables,
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
    bot,
    surface: 'bot',
  })
  const value = (id: string) => output.variablesSet.find((entry) => entry.id === id)?.value
  return { ...output, value }
}

/**
 * Runs a plugin's streamer (its `streams` export for the action) with the context the
 * stream endpoint builds; returns the chunks, or the error the streamer threw.
 */
export async function runStreamer(
  owner: Owner,
  type: string,
  options: Record<string, unknown>,
  variables: VariableState[]
) {
  const registry = await pluginRegistry()
  const plugin = registry.get(type)!
  const streams = await registry.exportOf<Record<string, Streamer<any, any>>>(type, 'streams')
  const streamer = streams?.[String(options.action)]
  if (!streamer) throw new Error(`${type} streams nothing for ${options.action}`)
  const logs: LogEntry[] = []
  const input = {
    plugin,
    options,
    variables,
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
  }
  const { store, changes } = createVariableStore(variables)
  const credentials = (await contextCredentials(input, logs)) ?? {}
  const ai = aiPort({ ownerId: owner.user.id, workspaceId: owner.workspace.id, source: type })
  const context = buildContext(input, await substitutedOptions(input), credentials, store, logs, ai)
  const chunks: string[] = []
  let error: unknown
  try {
    for await (const chunk of streamer(context)) chunks.push(chunk)
  } catch (thrown) {
    error = thrown
  }
  return { chunks, error, logs, variablesSet: changes(), creditLimit: ai.limitExceeded() }
}

/** Calls a plugin's fetcher (runner.ts `fetchers`) with the block's options. */
export async function runFetcher(
  owner: Owner,
  type: string,
  name: string,
  options: Record<string, unknown>
) {
  const registry = await pluginRegistry()
  const plugin = registry.get(type)!
  const fetchers = await registry.exportOf<Record<string, Fetcher<any>>>(type, 'fetchers')
  const fetcher = fetchers?.[name]
  if (!fetcher) throw new Error(`${type} has no fetcher ${name}`)
  const logs: LogEntry[] = []
  const input = {
    plugin,
    options,
    variables: [],
    workspaceId: owner.workspace.id,
    ownerId: owner.user.id,
  }
  const { store } = createVariableStore([])
  const credentials = (await contextCredentials(input, logs)) ?? {}
  return fetcher(buildContext(input, options, credentials, store, logs))
}

export async function usagesOf(owner: Owner) {
  return AiUsage.query().where('accountId', owner.user.id).orderBy('id', 'asc')
}

export async function creditsOf(owner: Owner): Promise<number> {
  const row = await db.from('users').where('id', owner.user.id).select('ai_credits').first()
  return Number(row.ai_credits)
}

export async function setCredits(owner: Owner, credits: number) {
  await db.from('users').where('id', owner.user.id).update({ ai_credits: credits })
}

export function descriptions(logs: { description: string }[]) {
  return logs.map((log) => log.description)
}

// ---------------------------------------------------------------------------
// Whole chats through the public API
// ---------------------------------------------------------------------------

/** An owner who can publish bots through the REST API (no plan limit in the way). */
export async function apiOwner(): Promise<Owner & { token: string }> {
  const owner = await newOwner()
  await setUserPlan(owner.user, 'UNLIMITED')
  // The plan applies through the workspace: the instance read before must see it.
  await owner.workspace.refresh()
  const token = (await new CreateApiToken().handle(owner.user, `ai-${Math.random()}`)).value
  return { ...owner, token }
}

/** Imports and publishes a bot; returns its public id. */
export async function publishBot(
  client: ApiClient,
  owner: Owner & { token: string },
  bot: Record<string, unknown>
) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(owner.token)
    .json({ workspaceId: owner.workspace.id, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(owner.token)
  published.assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

/** POST /api/v2/sessions/{id}/streamMessage as the viewer calls it: the status and text. */
export async function streamMessage(sessionId: string) {
  const response = await fetch(
    `http://127.0.0.1:${process.env.PORT}/api/v2/sessions/${sessionId}/streamMessage`,
    { method: 'POST' }
  )
  return { status: response.status, text: await response.text() }
}

export async function resultLogs(resultId: string) {
  const logs = await db.from('result_logs').where('result_id', resultId).orderBy('id')
  return logs.map((log) => ({ status: log.status, description: log.description }))
}

/** A rich-text paragraph, as text bubbles store it. */
export const paragraph = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })

/**
 * The smallest chat around one AI block: a question saved in {{Question}}, the block,
 * then a bubble (its text given) and the end. Variables: Question and those named.
 */
export function oneBlockBot(
  block: Record<string, unknown>,
  bubble: string,
  variables: { id: string; name: string }[]
) {
  return {
    version: '6',
    name: 'One AI block',
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
    ],
    edges: [
      { id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'ai' }, to: { groupId: 'g2' } },
    ],
    variables: [{ id: 'v_question', name: 'Question' }, ...variables],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          { id: 'q1', type: 'text input', options: { variableId: 'v_question' } },
          { id: 'ai', outgoingEdgeId: 'e2', ...block },
        ],
      },
      {
        id: 'g2',
        title: 'After',
        graphCoordinates: { x: 300, y: 100 },
        blocks: [{ id: 't1', type: 'text', content: paragraph(bubble) }],
      },
    ],
    theme: {},
    settings: {},
  }
}

/** Starts a chat, answers the question; returns the reply to that answer. */
export async function askOnce(client: ApiClient, publicId: string, question: string) {
  const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
  start.assertStatus(200)
  const { sessionId, resultId } = start.body()
  const reply = await client
    .post(`/api/v1/sessions/${sessionId}/continueChat`)
    .json({ message: question })
  reply.assertStatus(200)
  return { reply: reply.body(), resultId: resultId as string, sessionId: sessionId as string }
}
