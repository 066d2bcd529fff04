import type { HttpClient } from './define_plugin.js'

/**
 * The contract of event triggers: trigger plugins whose runs start from another service
 * (a chat platform calling us back, a mailbox we poll). A trigger plugin's runner.ts may
 * export any of these; the core (app/services/workflows/event_triggers.ts) finds them with
 * registry.exportOf and never names a plugin.
 *
 * - `onActivate(ctx)`: called when the workflow is activated, before it is marked active;
 *   a throw refuses the activation and its message is shown to the user. It may return
 *   `{ state }`, the first state kept for the workflow (e.g. a polling baseline).
 * - `onDeactivate(ctx)`: called when an active workflow stops being active (switched off,
 *   edited, archived, deleted), with the options and credentials it was activated with.
 * - `handleEvent(ctx)`: a call to `POST /api/v1/workflows/{id}/events/{nodeId}`. Returns
 *   `{ runInput }` to start a run (and optionally `respond` and `deliveryId`), or only
 *   `{ respond }` (a challenge, a rejected signature, an event the options filter out).
 *   `deliveryId` is the service's id of the event (Slack's event_id, Telegram's
 *   update_id): a delivery seen before is acknowledged again without a second run.
 * - `pollEveryMs(options)` and `poll(ctx)`: a polling trigger; the queue repeats the poll
 *   per active workflow, and each poll returns the inputs of the runs to start and the
 *   state to keep (saved before the runs are created, so an item starts one run at most).
 */

/** What every hook gets. */
export interface EventTriggerContext<Options = Record<string, unknown>> {
  workflowId: string
  nodeId: string
  /** The trigger node's options as published. */
  options: Options
  /** Decrypted credentials of the node's `credentialsId` ({} when it has none). */
  credentials: Record<string, unknown>
  /** The public URL of the workflow's event endpoint (APP_URL based). */
  eventUrl: string
  /**
   * A random secret made at activation (URL-safe, 43 characters), for services that echo
   * a token with each call (e.g. Telegram's secret_token).
   */
  secret: string
  /** The guarded HTTP client (private addresses only when ALLOW_INTERNAL_HTTP is set). */
  http: HttpClient
  signal: AbortSignal
}

export interface ActivationContext<
  Options = Record<string, unknown>,
> extends EventTriggerContext<Options> {
  /**
   * Whether a URL is the event URL of another workflow of this installation that is active
   * now: a service with one webhook per account (Telegram) must not take it from that one.
   */
  isActiveEventUrl(url: string): Promise<boolean>
}

export interface ActivationResult {
  state?: unknown
}

/** An inbound call as the event route received it. */
export interface EventRequest {
  method: string
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  query: Record<string, unknown>
  /** The parsed body (JSON or form), or null. */
  body: unknown
  /** The body exactly as it arrived, for signatures computed over the bytes. */
  rawBody: string
}

export interface EventContext<
  Options = Record<string, unknown>,
> extends EventTriggerContext<Options> {
  request: EventRequest
}

export interface EventResponse {
  status?: number
  body?: unknown
  headers?: Record<string, string>
}

export type HandledEvent =
  | { runInput: unknown; respond?: EventResponse; deliveryId?: string | null }
  | { respond: EventResponse }

export interface PollContext<
  Options = Record<string, unknown>,
  State = unknown,
> extends EventTriggerContext<Options> {
  /** What the last poll (or onActivate) kept; null at first. */
  state: State | null
}

export interface PollResult<State = unknown> {
  /** One run per item, in this order. */
  runInputs: unknown[]
  state: State
}

export type OnActivate<Options = Record<string, unknown>> = (
  ctx: ActivationContext<Options>
) => Promise<ActivationResult | void>
export type OnDeactivate<Options = Record<string, unknown>> = (
  ctx: EventTriggerContext<Options>
) => Promise<void>
export type HandleEvent<Options = Record<string, unknown>> = (
  ctx: EventContext<Options>
) => Promise<HandledEvent> | HandledEvent
export type Poll<Options = Record<string, unknown>, State = unknown> = (
  ctx: PollContext<Options, State>
) => Promise<PollResult<State>>
export type PollEveryMs<Options = Record<string, unknown>> = (options: Options) => number

/** Reads a service's JSON error body without failing on a non-JSON one. */
export async function jsonOrNull(response: Response): Promise<any> {
  return response.json().catch(() => null)
}
