/**
 * Whether an error means a service the app depends on (its database, Redis) is out of
 * reach, rather than a fault of the request or of our code: the client then gets a 503
 * with Retry-After (app/exceptions/handler.ts), and may simply try again.
 */

/** Network errors of any driver (pg, mysql2, ioredis) that could not reach its server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])

/** Driver codes of a server that is down, restarting, full or refusing connections. */
const DRIVER_CODES = new Set([
  // PostgreSQL: connection exceptions (class 08), shutting down or starting up (57P01-03),
  // too many connections (53300).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // MySQL / MariaDB.
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // SQLite: the file cannot be opened, is locked longer than busy_timeout, the disk fails.
  'SQLITE_CANTOPEN',
  'SQLITE_BUSY',
  'SQLITE_FULL',
])

/** Errors known by their name or message only (no code): pools and closed clients. */
const OUTAGE_NAMES = new Set(['KnexTimeoutError', 'MaxRetriesPerRequestError'])
const OUTAGE_MESSAGES = [
  /^Connection terminated/, // pg: the server went away mid-query
  /^Connection is closed\.?$/, // ioredis
  /^The database connection is not open$/, // better-sqlite3
  /Timeout acquiring a connection/, // knex's pool
]

function isOutageItself(error: object) {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown }
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || DRIVER_CODES.has(code)) return true
    if (code.startsWith('SQLITE_IOERR')) return true
  }
  if (typeof name === 'string' && OUTAGE_NAMES.has(name)) return true
  return typeof message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(message))
}

/** Looks through wrapped errors (`cause`) and grouped ones (AggregateError: IPv4 and IPv6). */
export function isDependencyOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  if (isOutageItself(error)) return true
  const { cause, errors } = error as { cause?: unknown; errors?: unknown }
  if (isDependencyOutage(cause, depth + 1)) return true
  return Array.isArray(errors) && errors.some((inner) => isDependencyOutage(inner, depth + 1))
}

/** How long a client should wait before trying again, in seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5
