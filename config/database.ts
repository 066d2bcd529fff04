import env from '#start/env'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, resolve } from 'node:path'
import { defineConfig } from '@adonisjs/lucid'

/**
 * Paths in .env are relative to the directory the process runs from (the project root for
 * `npm start`, `npm test` and ace), so that a rebuild of `build/` never moves the data.
 */
function fromCwd(path: string) {
  return isAbsolute(path) ? path : resolve(process.cwd(), path)
}

const sqlitePath = fromCwd(env.get('SQLITE_PATH') || 'tmp/db.sqlite3')
mkdirSync(dirname(sqlitePath), { recursive: true })

const databaseUrl = env.get('DATABASE_URL')
const connectionName = env.get('DB_CONNECTION')

if (connectionName !== 'sqlite' && !databaseUrl) {
  throw new Error(
    `DB_CONNECTION=${connectionName} needs DATABASE_URL (a postgres:// or mysql:// URL)`
  )
}

/**
 * sqlite-vec gives knowledge stores vector search inside SQLite (docs/knowledge.md). It is
 * loaded into every connection when its package is installed; without it search computes
 * cosine similarity in JavaScript.
 */
let loadSqliteVec: ((connection: unknown) => void) | undefined
try {
  loadSqliteVec = createRequire(import.meta.url)('sqlite-vec').load
} catch {
  loadSqliteVec = undefined
}

const migrations = { naturalSort: true, paths: ['database/migrations'] }
const seeders = { paths: ['database/seeders'] }

/**
 * The pool of a PostgreSQL or MySQL connection, per process.
 * - More than knex's 10 connections: a chat turn runs its writes in parallel.
 * - An unused connection is closed after DB_POOL_IDLE_SECONDS (10 minutes; knex's default
 *   is 30 s). The connections opened for a burst all go idle at the same moment, and the
 *   pool then closes them in one go: at 30 s, PostgreSQL ending some 20 backends per process
 *   at once stalled the chat bench's answers for 38 to 409 ms, and traffic that came and
 *   went reopened them each time (docs/benchmarks/chat.md, "The pool's idle time"). Set
 *   it below the idle limit of a proxy in front of the database, if it has one.
 */
const serverPool = {
  min: 2,
  max: env.get('DB_POOL_MAX') ?? 20,
  idleTimeoutMillis: (env.get('DB_POOL_IDLE_SECONDS') ?? 600) * 1000,
}

const dbConfig = defineConfig({
  connection: connectionName,
  prettyPrintDebugQueries: true,
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: sqlitePath },
      useNullAsDefault: true,
      // Dropping the FTS5 table of knowledge chunks, or one of its vec0 tables (one per
      // dimension, docs/knowledge.md), drops its shadow tables with it, so a wipe
      // (migration:fresh) must not drop them a second time. Lucid asks `includes` of each name.
      wipe: {
        ignoreTables: Object.assign([] as string[], {
          includes: (name: string) => /^knowledge_chunks_(fts|vec_\d+)_/.test(name),
        }),
      },
      migrations,
      seeders,
      pool: {
        afterCreate: (conn: any, done: (err: Error | null, conn: any) => void) => {
          // Enforce foreign keys (cascade deletes) and allow readers during writes.
          conn.pragma('foreign_keys = ON')
          conn.pragma('journal_mode = WAL')
          conn.pragma('busy_timeout = 5000')
          try {
            loadSqliteVec?.(conn)
          } catch {
            // A platform without its prebuilt library: search falls back to JavaScript.
          }
          done(null, conn)
        },
      },
    },
    pg: {
      client: 'pg',
      connection: databaseUrl?.startsWith('postgres') ? databaseUrl : undefined,
      pool: serverPool,
      migrations,
      seeders,
    },
    mysql: {
      client: 'mysql2',
      connection: (databaseUrl?.startsWith('mysql') ? databaseUrl : undefined) as any,
      pool: serverPool,
      migrations,
      seeders,
    },
  },
})

export default dbConfig
