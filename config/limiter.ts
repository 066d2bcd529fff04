import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * Rate limits live in memory in the embedded mode and in the database otherwise,
 * so several web processes share one count.
 */
const databaseUrl = env.get('DATABASE_URL')
// MySQL keeps the table in the app's own database (the limiter's default is a database of its own).
const dbName = databaseUrl?.startsWith('mysql')
  ? new URL(databaseUrl).pathname.slice(1) || undefined
  : undefined

const limiterConfig = defineConfig({
  default: env.get('DB_CONNECTION') === 'sqlite' ? 'memory' : 'database',
  stores: {
    memory: stores.memory({}),
    database: stores.database({ tableName: 'rate_limits', clearExpiredByTimeout: true, dbName }),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
