import { spawn } from 'node:child_process'
import app from '@adonisjs/core/services/app'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A real `node ace queue:work` worker on BullMQ, as a deployment runs one beside the web
 * processes: its output is kept, and `ready()` waits for its "Working … job types" line.
 */
export function startQueueWorker(redisUrl: string, prefix: string, readyTimeoutMs = 60_000) {
  const child = spawn(process.execPath, ['--no-node-snapshot', 'ace.js', 'queue:work'], {
    cwd: app.makePath(),
    env: { ...process.env, QUEUE_DRIVER: 'bullmq', REDIS_URL: redisUrl, QUEUE_PREFIX: prefix },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return {
    child,
    get output() {
      return output
    },
    async ready(timeoutMs = readyTimeoutMs) {
      const started = Date.now()
      while (!/Working \d+ job types on bullmq/.test(output)) {
        if (child.exitCode !== null || Date.now() - started > timeoutMs) {
          throw new Error(`The worker did not start:\n${output}`)
        }
        await sleep(50)
      }
    },
  }
}
