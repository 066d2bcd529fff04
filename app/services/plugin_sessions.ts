import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { appUrl } from '#config/app'
import Credential from '#models/credential'
import PluginSession from '#models/plugin_session'
import { readCredentials } from '#services/credentials'
import { createGuardedHttp } from '#plugins/guarded_http'
import {
  SessionCredentialError,
  type OpenPluginSessionInput,
  type OpenedPluginSession,
  type PluginCallbackAnswer,
  type PluginCallbackRequest,
  type PluginCallbacks,
} from '#sdk/sessions'
import { aiPort } from '#services/ai/credits'
import { newToken } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { resumeRun } from '#services/workflows/run_workflow'
import { dispatch } from '#queue/queue'
import { resumeJob } from '#services/workflows/jobs'

/**
 * Plugin sessions (docs/plugins.md, "Sessions called back by a service"): the rows behind a
 * plugin's callback URLs, and the answer to a call of one.
 */

/** How long a callback may still arrive after the work was started, unless the plugin says. */
const DEFAULT_TTL_MS = 60 * 60 * 1000
/** A callback's own bound: services such as Twilio give up on a webhook after 15 s. */
const CALLBACK_TIMEOUT_MS = 14_000

export function pluginSessionUrl(pluginId: string, sessionId: string, callback: string) {
  return `${appUrl.replace(/\/+$/, '')}/api/v1/plugins/${encodeURIComponent(pluginId)}/sessions/${sessionId}/${encodeURIComponent(callback)}`
}

/**
 * The rule of runner contexts (credentialsFor in app/services/runner_context.ts): a record
 * of the workspace; of the owner too when the plugin's credentials are per user.
 */
async function usableCredentials(
  pluginId: string,
  workspaceId: string,
  ownerId: string | null,
  id: unknown
) {
  const plugin = (await pluginRegistry()).get(pluginId)
  const name = plugin?.name ?? pluginId
  const record = typeof id === 'string' && id ? await Credential.find(id) : null
  const usable =
    record &&
    record.workspaceId === workspaceId &&
    (plugin?.scope === 'workspace' || !ownerId || record.userId === ownerId)
  if (!usable) throw new SessionCredentialError(name)
  return readCredentials(record)
}

/** The owner of a run's workflow: whose AI credits the session's callbacks spend. */
async function ownerOfRun(runId: string | undefined): Promise<string | null> {
  if (!runId) return null
  const row = await db
    .from('workflow_runs')
    .join('workflows', 'workflows.id', 'workflow_runs.workflow_id')
    .where('workflow_runs.id', runId)
    .select('workflows.created_by as owner')
    .first()
  return row?.owner ?? null
}

/**
 * Opens a session for a runner (the SDK's SessionsPort). `credentialIds` are checked now (the
 * node fails before the service is called, not at its first callback). `runId` and `nodeId`
 * name the workflow node that waits for the session's end.
 */
export async function openPluginSession(
  input: OpenPluginSessionInput
): Promise<OpenedPluginSession> {
  const ownerId = await ownerOfRun(input.runId)
  for (const id of input.credentialIds ?? []) {
    await usableCredentials(input.pluginId, input.workspaceId, ownerId, id)
  }
  const session = await PluginSession.create({
    id: newToken(24),
    pluginId: input.pluginId,
    workspaceId: input.workspaceId,
    ownerId,
    runId: input.runId ?? null,
    nodeId: input.nodeId ?? null,
    status: 'open',
    state: input.state,
    expiresAt: DateTime.now().plus({ milliseconds: input.ttlMs ?? DEFAULT_TTL_MS }),
  })
  return {
    id: session.id,
    urlOf: (callback) => pluginSessionUrl(input.pluginId, session.id, callback),
  }
}

/** Merges into an open session's state (what the service answered when the work started). */
export async function updatePluginSession(id: string, patch: Record<string, unknown>) {
  const session = await PluginSession.find(id)
  if (!session) return
  session.state = { ...session.state, ...patch }
  await session.save()
}

/** Closes a session whose work never started (the service refused it). */
export async function closePluginSession(id: string) {
  await PluginSession.query().where('id', id).update({ status: 'closed' })
}

// The class is the SDK's: a plugin and the app test one `instanceof`.
export { SessionCredentialError }

/**
 * Answers a service's call to `/api/v1/plugins/{pluginId}/sessions/{id}/{callback}`: the
 * plugin's callback runs with the session's state; its new state is saved; when it ends the
 * session, a workflow node waiting for it goes on with the callback's output. Unknown,
 * closed or expired sessions and unknown callbacks are answered 404 without running code.
 */
export async function receivePluginCallback(
  params: { pluginId: string; sessionId: string; callback: string },
  request: PluginCallbackRequest
): Promise<PluginCallbackAnswer> {
  const session = await PluginSession.find(params.sessionId)
  if (
    !session ||
    session.pluginId !== params.pluginId ||
    session.status !== 'open' ||
    session.expiresAt.toMillis() < Date.now()
  ) {
    return { status: 404 }
  }
  const callbacks = await (
    await pluginRegistry()
  ).exportOf<PluginCallbacks>(session.pluginId, 'callbacks')
  const handler =
    callbacks && Object.hasOwn(callbacks, params.callback) ? callbacks[params.callback] : undefined
  if (!handler) return { status: 404 }

  const answer = await handler({
    session: {
      id: session.id,
      pluginId: session.pluginId,
      workspaceId: session.workspaceId,
      runId: session.runId,
      nodeId: session.nodeId,
    },
    state: session.state ?? {},
    request,
    urlOf: (callback) => pluginSessionUrl(session.pluginId, session.id, callback),
    credentialsOf: (id) =>
      usableCredentials(session.pluginId, session.workspaceId, session.ownerId, id),
    http: createGuardedHttp({ allowInternal: env.get('ALLOW_INTERNAL_HTTP') }),
    ai: aiPort({
      ownerId: session.ownerId,
      workspaceId: session.workspaceId,
      source: session.pluginId,
      countsAsAiCall: true,
    }),
    signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
  })

  const changes: Record<string, unknown> = {
    updated_at: DateTime.now().toFormat(db.connection().dialect.dateTimeFormat),
  }
  if (answer.state !== undefined) changes.state = JSON.stringify(answer.state)
  if (answer.end) changes.status = 'closed'
  // Only the call that closes the session resumes the run: a status callback racing the
  // last turn finds it closed already.
  const updated = await db
    .from('plugin_sessions')
    .where('id', session.id)
    .where('status', 'open')
    .update(changes)
  const closedHere = (Array.isArray(updated) ? updated[0] : updated) === 1
  if (answer.end && closedHere && session.runId && session.nodeId) {
    await resumeWaitingNode(session.runId, session.nodeId, answer.end.output)
  }
  return answer
}

/** As a wait node's webhook call does (ResumeWaitingRun): a full workflow keeps the call queued. */
async function resumeWaitingNode(runId: string, nodeId: string, payload: unknown) {
  const outcome = await resumeRun(runId, payload, { nodeId })
  if (outcome?.deferred) {
    await dispatch(resumeJob, { runId, nodeId, payload }, { jobId: `${runId}:${nodeId}` })
  }
}
