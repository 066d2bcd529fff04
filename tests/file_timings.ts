import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PluginFn } from '@japa/runner/types'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/**
 * When TEST_TIMINGS_FILE is set (bin/test_all.js sets it for each shard), writes there how long
 * the tests of each file took, in milliseconds, keyed by the file's path from the project root.
 * `npm test` splits the files over its shards by these times (docs/testing.md, "Shards").
 */
export function recordFileTimings(): PluginFn {
  return ({ emitter }) => {
    const target = process.env.TEST_TIMINGS_FILE
    if (!target) return
    const times: Record<string, number> = {}
    // Wall time from one event to the next goes to the file of the earlier event, so group
    // hooks (servers, app processes a group starts) count with their file's tests.
    let current: string | undefined
    let since = performance.now()
    const mark = (payload: { meta?: { fileName?: string } }) => {
      const now = performance.now()
      if (current) times[current] = Math.round((times[current] ?? 0) + now - since)
      const file = payload.meta?.fileName
      current = file
        ? relative(ROOT, file.startsWith('file:') ? fileURLToPath(file) : file)
        : undefined
      since = now
    }
    emitter.on('group:start', mark)
    emitter.on('test:start', mark)
    emitter.on('test:end', mark)
    // Written after every group too: a run stopped part-way (a time-out, Ctrl-C) still leaves
    // the times of the files it finished, which is how the browser files once went unmeasured.
    const write = () => {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, JSON.stringify(times, null, 1))
    }
    emitter.on('group:end', (payload) => {
      mark(payload)
      current = undefined
      write()
    })
    emitter.on('runner:end', write)
  }
}
