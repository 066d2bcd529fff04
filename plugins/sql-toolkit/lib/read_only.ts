/**
 * The statement check of the SQL toolkit's query tool: one statement that reads. It is the
 * first of two locks (the query also runs in a read-only transaction that is rolled back),
 * so it may refuse a harmless query but must never pass one that writes: when in doubt, no.
 */

/** Words that start a statement that only reads. */
const READING_STARTS = new Set([
  'SELECT',
  'WITH',
  'SHOW',
  'EXPLAIN',
  'DESCRIBE',
  'DESC',
  'VALUES',
  'TABLE',
])

/**
 * Words that write, change the session or end the transaction, anywhere in the statement
 * (outside strings, quoted names and comments): a data-modifying CTE (`WITH x AS (DELETE …)`),
 * `SELECT … INTO` (a new table, or a file on MySQL), `EXPLAIN ANALYZE` of a write, a `COMMIT`
 * that would end the read-only transaction, locking reads.
 */
const FORBIDDEN = [
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'UPSERT',
  'REPLACE',
  'DROP',
  'ALTER',
  'CREATE',
  'TRUNCATE',
  'RENAME',
  'GRANT',
  'REVOKE',
  'COPY',
  'CALL',
  'DO',
  'LOCK',
  'UNLOCK',
  'SET',
  'RESET',
  'INTO',
  'COMMIT',
  'ROLLBACK',
  'BEGIN',
  'START',
  'SAVEPOINT',
  'RELEASE',
  'PREPARE',
  'EXECUTE',
  'DEALLOCATE',
  'LISTEN',
  'NOTIFY',
  'UNLISTEN',
  'VACUUM',
  'ANALYZE',
  'ANALYSE',
  'CLUSTER',
  'REINDEX',
  'REFRESH',
  'DISCARD',
  'LOAD',
  'HANDLER',
  'OUTFILE',
  'DUMPFILE',
  'SHUTDOWN',
  'KILL',
  'FLUSH',
  'PURGE',
  'INSTALL',
  'UNINSTALL',
  'OPTIMIZE',
  'REPAIR',
  'CHECKPOINT',
  'SECURITY',
  'IMPORT',
  'SHARE',
]
const FORBIDDEN_WORDS = new RegExp(`\\b(${FORBIDDEN.join('|')})\\b`, 'i')

export class ReadOnlyQueryError extends Error {
  name = 'ReadOnlyQueryError'
}

/**
 * The statement with its strings, quoted names and comments blanked out, so the check reads
 * only what the database parses as keywords. An unterminated quote or comment is refused.
 */
export function codeOnly(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const c = sql[i]
    const two = sql.slice(i, i + 2)
    if (two === '--' || c === '#') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end
      out += ' '
    } else if (two === '/*') {
      const end = sql.indexOf('*/', i + 2)
      if (end < 0) throw new ReadOnlyQueryError('The query has an unterminated comment')
      i = end + 2
      out += ' '
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1
      while (j < sql.length) {
        if (sql[j] === '\\' && c === "'") j += 2
        else if (sql[j] === c && sql[j + 1] === c) j += 2
        else if (sql[j] === c) break
        else j += 1
      }
      if (j >= sql.length) throw new ReadOnlyQueryError('The query has an unterminated quote')
      i = j + 1
      out += c === "'" ? " '' " : ' "q" '
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0]
      const end = sql.indexOf(tag, i + tag.length)
      if (end < 0) throw new ReadOnlyQueryError('The query has an unterminated dollar quote')
      i = end + tag.length
      out += " '' "
    } else {
      out += c
      i += 1
    }
  }
  return out
}

/** Throws unless the query is a single statement that only reads; returns it trimmed. */
export function checkReadOnly(sql: unknown): string {
  const text = typeof sql === 'string' ? sql.trim().replace(/;\s*$/, '') : ''
  if (!text) throw new ReadOnlyQueryError('The query is empty')
  const code = codeOnly(text)
  if (code.includes(';')) throw new ReadOnlyQueryError('Only one statement may be run at a time')
  const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1]?.toUpperCase() ?? ''
  if (!READING_STARTS.has(first)) {
    throw new ReadOnlyQueryError(
      `Only queries that read are allowed (SELECT, WITH, SHOW, EXPLAIN…), not ${first || 'this statement'}`
    )
  }
  const forbidden = FORBIDDEN_WORDS.exec(code)
  if (forbidden) {
    throw new ReadOnlyQueryError(
      `Only queries that read are allowed: ${forbidden[1].toUpperCase()} is not`
    )
  }
  return text
}
