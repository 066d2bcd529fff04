import { appPort } from './port.js'

/**
 * `#sdk/brain` (server): the brain service, the operator's own backend behind the Text to
 * Video and Zemantic AI blocks. Its address is the app's configuration, not a builder's
 * input; the app calls it (see its BrainPort). Not a package entry: the app's plugins only.
 */

export const BRAIN_TIMEOUT_MS = 120_000

export class BrainError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly details?: unknown
  ) {
    super(message)
    this.name = 'BrainError'
  }
}

/** The app's side of this module (see port.ts). */
export interface BrainPort {
  brainServiceUrl: typeof brainServiceUrl
  overrideBrainServiceUrl: typeof overrideBrainServiceUrl
  callBrain: typeof callBrain
}

/** The brain service's address, without a trailing slash; empty when not configured. */
export function brainServiceUrl(): string {
  return appPort('brain').brainServiceUrl()
}

/** Tests point the blocks at a stand-in; returns the undo. */
export function overrideBrainServiceUrl(url: string | undefined): () => void {
  return appPort('brain').overrideBrainServiceUrl(url)
}

/**
 * POST {service}{path} with a JSON body; the parsed JSON answer. A refusal throws a
 * BrainError with the service's reason when it gives one.
 */
export async function callBrain<T = Record<string, unknown>>(
  path: string,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal; timeoutMs?: number } = {}
): Promise<T> {
  return appPort('brain').callBrain<T>(path, body, options)
}
