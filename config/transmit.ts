import { defineConfig } from '@adonisjs/transmit'

/**
 * Server-sent events (run progress now; copilot and co-editing later).
 *
 * No transport, in both modes: run events reach every web process through the run-event
 * relay (app/services/workflows/run_event_relay.ts, Redis pub/sub with QUEUE_DRIVER=bullmq),
 * which the webhook route needs anyway to hear its run's answer from a worker, and each web
 * process broadcasts them to the streams it holds. A feature that broadcasts from one web
 * process to the browsers of all of them will set `transport: { driver: redis({...}) }`
 * (from '@adonisjs/transmit/transports').
 */
export default defineConfig({
  // Proxies close idle connections; a ping every 30 s keeps the stream open.
  pingInterval: '30s',
  transport: null,
})
