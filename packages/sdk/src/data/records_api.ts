import type { RunnerContext } from '../runner_types.js'

/**
 * What the plugins of hosted record stores (Airtable, NocoDB) share: one API key, JSON
 * answers whose failures are logged with their status and body, and key/value lists turned into records.
 */

/** An answer of the service that is not a success: its status and its body. */
export class RecordsApiError extends Error {
  constructor(
    message: string,
    readonly details: { status: number; body: unknown }
  ) {
    super(message)
  }
}

/** An answer's body: its JSON, its text when it is not JSON, undefined when empty. */
export async function answerBody(response: Response): Promise<any> {
  const text = await response.text()
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return text
  }
}

/**
 * The entries of a key/value list that have a key and a value, keys trimmed and values as
 * they are (a list keeps half-filled rows while the builder types).
 */
export function filledEntries<V>(
  entries: readonly { key?: string; value?: V | null }[] | null | undefined
): [string, V][] {
  const filled: [string, V][] = []
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (
      !entry?.key?.trim() ||
      entry.value === undefined ||
      entry.value === null ||
      entry.value === ''
    )
      continue
    filled.push([entry.key.trim(), entry.value])
  }
  return filled
}

type KeyedContext = RunnerContext<any, { apiKey?: string }>

/**
 * One action of a record store: refused without an API key; a failure (an error answer or
 * a bad option) is logged under `failure` and the flow goes on.
 */
export function recordsApiAction<C extends KeyedContext>(
  failure: string,
  work: (context: C) => Promise<unknown>
) {
  return async (context: RunnerContext<any, any>): Promise<any> => {
    const ctx = context as C
    if (!ctx.credentials.apiKey?.trim()) return void ctx.logger.error('API key is required')
    try {
      return await work(ctx)
    } catch (error) {
      ctx.logger.error(
        failure,
        error instanceof RecordsApiError
          ? { message: error.message, ...error.details }
          : error instanceof Error
            ? error.message
            : String(error)
      )
    }
  }
}
