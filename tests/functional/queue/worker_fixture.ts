/**
 * A queue worker in its own process, for the test that kills one mid-job (bullmq.spec.ts).
 * It builds the BullMQ driver directly, without booting the app, and prints "ready" once its
 * workers are connected.
 *
 *   FIXTURE_REDIS_URL, FIXTURE_PREFIX, FIXTURE_HOLD_MS (how long a job runs),
 *   FIXTURE_LOCK_MS, FIXTURE_STALLED_MS (lockDurationMs, stalledIntervalMs)
 */
import { Redis } from 'ioredis'
import { BullMQDriver } from '#queue/bullmq_driver'
import { recordingJobs } from './recording_jobs.js'

const url = process.env.FIXTURE_REDIS_URL!
const prefix = process.env.FIXTURE_PREFIX!
const redis = new Redis(url, { maxRetriesPerRequest: null })
const driver = new BullMQDriver({
  url,
  prefix,
  lockDurationMs: Number(process.env.FIXTURE_LOCK_MS ?? 30_000),
  // The stalled check takes a queue-wide turn of this length: a longer one here would hold
  // off the checks of the other workers.
  stalledIntervalMs: Number(process.env.FIXTURE_STALLED_MS ?? 30_000),
})
await driver.work(
  recordingJobs(redis, prefix, 'child', Number(process.env.FIXTURE_HOLD_MS ?? 60_000))
)
await driver.ready()
process.stdout.write('ready\n')
