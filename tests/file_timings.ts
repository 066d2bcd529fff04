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
    emitter.on('test:end', (payload) => {
      const file = payload.meta.fileName
      if (!file) return
      const key = relative(ROOT, file.startsWith('file:') ? fileURLToPath(file) : file)
      times[key] = (times[key] ?? 0) + (payload.duration ?? 0)
    })
    emitter.on('runner:end', () => {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, JSON.stringify(times, null, 1))
    })
  }
}
