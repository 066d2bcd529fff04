import type { AiPort } from './ai.js'
import type { BrainPort } from './brain.js'
import type { DataPort } from './data.js'
import type { DocumentsPort } from './documents.js'
import type { GooglePort } from './google.js'
import type { HttpPort } from './http.js'
import type { KnowledgePort } from './knowledge.js'
import type { MailPort } from './mail.js'
import type { N8nPort } from './n8n.js'
import type { OAuthPort } from './oauth.js'
import type { SessionsPort } from './sessions.js'
import type { WorkflowsPort } from './workflows.js'

/**
 * The port through which the SDK's helpers reach the app that runs the plugin. The SDK
 * declares what a plugin may call (`@flowcraft/sdk/http`, `/google`, ...); the app implements
 * it and registers the implementation when it boots. The registration lives on `globalThis`
 * under a shared symbol: a plugin package installed into the app may bring its own copy of
 * this module, and it must still find what the app registered in the app's copy.
 */

/** The operator's bounds that plugins apply (read from the app's configuration). */
export interface LimitsPort {
  /** How many Slack users one node may reach in a run. */
  slackUsers(): number
  /** How many iterations one loop, and all loops of a turn or a run together, may run. */
  loopIterations(): number
}

export interface AppPort {
  http: HttpPort
  oauth: OAuthPort
  google: GooglePort
  ai: AiPort
  knowledge: KnowledgePort
  data: DataPort
  n8n: N8nPort
  brain: BrainPort
  limits: LimitsPort
  sessions: SessionsPort
  workflows: WorkflowsPort
  mail: MailPort
  documents: DocumentsPort
}

const KEY = Symbol.for('@flowcraft/sdk/app-port')

type Holder = { [KEY]?: Partial<AppPort> }

/**
 * Registers (part of) the app's implementation; later registrations replace the parts they
 * name. Returns the undo, for tests that stand in for a part.
 */
export function registerAppPort(parts: Partial<AppPort>): () => void {
  const holder = globalThis as Holder
  const previous = holder[KEY]
  holder[KEY] = { ...previous, ...parts }
  return () => {
    holder[KEY] = previous
  }
}

/** The part of the app's implementation a helper delegates to; a clear error without one. */
export function appPort<K extends keyof AppPort>(part: K): AppPort[K] {
  const found = (globalThis as Holder)[KEY]?.[part]
  if (!found) {
    throw new Error(
      `@flowcraft/sdk: no app has registered its "${part}" helpers; this helper runs inside Flowcraft (or a test that registers them with registerAppPort)`
    )
  }
  return found as AppPort[K]
}
