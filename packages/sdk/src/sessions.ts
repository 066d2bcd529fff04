import type { HttpClient, RunnerAi } from './define_plugin.js'
import { appPort } from './port.js'

/**
 * Plugin sessions (docs/plugins.md, "Sessions called back by a service"): a runner opens one
 * when a service will call the app back several times about one piece of work (each turn of a
 * Twilio voice call), and its runner.ts exports `callbacks`, the handlers of those calls.
 * The session's state lives in the database, so any web process can take the next call.
 * `@flowcraft/sdk/sessions` (server; `#sdk/sessions` in the app): the sessions are the app's
 * rows, so opening, updating and closing one asks the app through the port.
 */

/** What a runner gets back from `openPluginSession`. */
export interface OpenedPluginSession {
  id: string
  /** The public URL of one of the plugin's callbacks for this session. */
  urlOf(callback: string): string
}

/** The service's call, as the callback receives it. */
export interface PluginCallbackRequest {
  method: string
  /** The URL the service called, built from the app's public URL (APP_URL): what it signed. */
  url: string
  /** Lower-case header names. */
  headers: Record<string, string | undefined>
  /** The parsed body (form fields or JSON). */
  body: Record<string, unknown>
  rawBody: string
}

export interface PluginCallbackContext<State = Record<string, unknown>> {
  session: {
    id: string
    pluginId: string
    workspaceId: string
    runId: string | null
    nodeId: string | null
  }
  state: State
  request: PluginCallbackRequest
  urlOf(callback: string): string
  /**
   * A credential record of the session's workspace, decrypted; throws when it is not one
   * (another workspace's, deleted, unreadable).
   */
  credentialsOf(id: unknown): Promise<Record<string, unknown>>
  /** The guarded HTTP client runners get. */
  http: HttpClient
  /** The AI credits of the session's owner (the workflow's owner). */
  ai: RunnerAi
  signal: AbortSignal
}

export interface PluginCallbackAnswer<State = Record<string, unknown>> {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** The session's new state; left out, it stays as it was. */
  state?: State
  /**
   * The session is over: it is closed (later calls are answered 404) and a workflow node
   * waiting for it resumes with `output` as its output.
   */
  end?: { output: unknown }
}

export type PluginCallback<State = any> = (
  context: PluginCallbackContext<State>
) => PluginCallbackAnswer<State> | Promise<PluginCallbackAnswer<State>>

/** The `callbacks` export of a plugin's runner.ts. */
export type PluginCallbacks = Record<string, PluginCallback>

/** What a runner says when it opens a session. */
export interface OpenPluginSessionInput {
  pluginId: string
  workspaceId: string
  /** With `nodeId`: the workflow node that waits for the session's end. */
  runId?: string
  nodeId?: string
  state: Record<string, unknown>
  /** Checked now: the node fails before the service is called, not at its first callback. */
  credentialIds?: unknown[]
  /** How long a callback may still arrive (an hour unless said). */
  ttlMs?: number
}

/** Why a credential cannot serve a session; plugins show it in their logs. */
export class SessionCredentialError extends Error {
  constructor(pluginName: string) {
    super(`${pluginName}: the selected credentials were not found`)
    this.name = 'SessionCredentialError'
  }
}

/** The app's side of `@flowcraft/sdk/sessions` (see port.ts). */
export interface SessionsPort {
  openPluginSession(input: OpenPluginSessionInput): Promise<OpenedPluginSession>
  updatePluginSession(id: string, patch: Record<string, unknown>): Promise<void>
  closePluginSession(id: string): Promise<void>
}

/**
 * Opens a session for a runner; a credential of `credentialIds` the block may not use throws
 * SessionCredentialError.
 */
export async function openPluginSession(
  input: OpenPluginSessionInput
): Promise<OpenedPluginSession> {
  return appPort('sessions').openPluginSession(input)
}

/** Merges into an open session's state (what the service answered when the work started). */
export async function updatePluginSession(id: string, patch: Record<string, unknown>) {
  return appPort('sessions').updatePluginSession(id, patch)
}

/** Closes a session whose work never started (the service refused it). */
export async function closePluginSession(id: string) {
  return appPort('sessions').closePluginSession(id)
}
