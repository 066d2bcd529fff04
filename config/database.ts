import env from '#start/env'
import { mkdirSync } from 'node:fs'
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

const migrations = { naturalSort: true, paths: ['database/migrations'] }
const seeders = { paths: ['database/seeders'] }

const dbConfig = defineConfig({
  connection: connectionName,
  prettyPrintDebugQueries: true,
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: sqlitePath },
      useNullAsDefault: true,
      migrations,
      seeders,
      pool: {
        afterCreate: (conn: any, done: (err: Error | null, conn: any) => void) => {
          // Enforce foreign keys (cascade deletes) and allow readers during writes.
          conn.pragma('foreign_keys = ON')
          conn.pragma('journal_mode = WAL')
          conn.pragma('busy_timeout = 5000')
          done(null, conn)
        },
      },
    },
    pg: {
      client: 'pg',
      connection: databaseUrl?.startsWith('postgres') ? databaseUrl : undefined,
      // A chat turn runs its writes in parallel: more than knex's 10 connections help.
      pool: { min: 2, max: env.get('DB_POOL_MAX') ?? 20 },
      migrations,
      seeders,
    },
    mysql: {
      client: 'mysql2',
      connection: (databaseUrl?.startsWith('mysql') ? databaseUrl : undefined) as any,
      pool: { min: 2, max: env.get('DB_POOL_MAX') ?? 20 },
      migrations,
      seeders,
    },
  },
})

export default dbConfig
