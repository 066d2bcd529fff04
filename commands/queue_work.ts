import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace queue:work
 * Runs the queue's jobs from Redis (QUEUE_DRIVER=bullmq). Start as many as needed, on any
 * number of machines. SIGTERM or SIGINT lets running jobs finish (up to 10 s, then their
 * signal is aborted and unfinished jobs go back to the queue) and exits.
 */
export default class QueueWork extends BaseCommand {
  static commandName = 'queue:work'
  static description = 'Run queue workers (QUEUE_DRIVER=bullmq) until SIGTERM or SIGINT'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  async run() {
    const { default: env } = await import('#start/env')
    if (env.get('QUEUE_DRIVER') !== 'bullmq') {
      return this.#fail(
        'QUEUE_DRIVER is in-process: the web process runs the jobs itself, so there is ' +
          'nothing for queue:work to do. Set QUEUE_DRIVER=bullmq and REDIS_URL to run ' +
          'workers apart from the web process.'
      )
    }

    // The queue provider's terminating hook closes the queue; terminate() runs once however
    // many signals arrive (bin/console.ts also terminates on SIGTERM).
    const stop = (signal: string) => {
      this.logger.info(`${signal}: letting running jobs finish, then exiting`)
      // Jobs cut off at the close deadline can leave sockets and timers behind (a request to a
      // service that never answers, a script's isolate): once the app has terminated, nothing
      // of them may keep a stopped worker alive. A terminate that itself hangs ends at 25 s.
      const deadline = setTimeout(() => {
        this.logger.error(`${signal}: still stopping after 25 s, exiting`)
        process.exit(1)
      }, 25_000)
      deadline.unref()
      this.terminate().then(
        () => setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref(),
        (error) => {
          this.logger.error(error instanceof Error ? error.message : String(error))
          process.exit(1)
        }
      )
    }
    this.app.listenOnce('SIGTERM', () => stop('SIGTERM'))
    this.app.listenOnce('SIGINT', () => stop('SIGINT'))

    try {
      const { startWorkers, jobDefinitions, keepQueueRegistrations } = await import('#queue/queue')
      const { BullMQDriver } = await import('#queue/bullmq_driver')
      const driver = await startWorkers()
      // Waits for Redis, so the log line below means the workers are connected; the open
      // connection also keeps the process alive when no job type is registered yet.
      if (driver instanceof BullMQDriver) await driver.ready()
      // Workers, not only web processes, put the periodic jobs back into a Redis that lost
      // them: a deployment whose web processes do not restart still gets its sweep.
      await keepQueueRegistrations()
      const names = jobDefinitions().map((definition) => definition.name)
      this.logger.info(
        `Working ${names.length} job types on ${driver.name} (pid ${process.pid}): ` +
          (names.join(', ') || 'none registered')
      )
    } catch (error) {
      return this.#fail(error instanceof Error ? error.message : String(error))
    }
  }

  /**
   * A command that stays alive gets its exit code copied to the process only when the app
   * terminates after run() has returned; ending it here needs the code set by hand.
   */
  async #fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
    process.exitCode = 1
    await this.terminate()
  }
}
