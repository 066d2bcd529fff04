import { defineConfig } from '@adonisjs/transmit'
import { redis } from '@adonisjs/transmit/transports'
import env from '#start/env'

/**
 * Server-sent events (run progress now; copilot and co-editing later).
 *
 * Run events reach every web process through the run-event relay
 * (app/services/workflows/run_event_relay.ts, Redis pub/sub with QUEUE_DRIVER=bullmq), and
 * each process sends them only to the streams it holds (broadcastExcept, local).
 * Co-editing's updates and presence (docs/editor.md "Editing together") are sent from the
 * process that received them to the browsers of all processes: in scaled mode (Redis
 * configured) through the Redis transport; in the embedded default there is one process.
 */
export default defineConfig({
  // Proxies close idle connections; a ping every 30 s keeps the stream open.
  pingInterval: '30s',
  transport:
    env.get('QUEUE_DRIVER') === 'bullmq' && env.get('REDIS_URL')
      ? // A redis:// URL is what ioredis takes as its options too.
        { driver: redis(env.get('REDIS_URL') as never) }
      : null,
})
