/**
 * Errors a second try clears: a deadlock or lock timeout (PostgreSQL, MySQL), a busy SQLite
 * file, no pooled connection in time. Under load the writes of concurrent runs can deadlock
 * on MySQL; the database rolls one back and expects the client to try again (docs/queue.md,
 * "Transient errors").
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, errno, name } = error as { code?: unknown; errno?: unknown; name?: unknown }
  if (name === 'KnexTimeoutError') return true
  if (errno === 1213 || errno === 1205) return true
  return (
    typeof code === 'string' &&
    ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', '40P01', '40001', '55P03', 'SQLITE_BUSY'].includes(
      code
    )
  )
}
