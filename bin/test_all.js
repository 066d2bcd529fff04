/*
| `npm test`: every suite. The unit and functional suites run in one process and the browser
| suite in a second one, so that nothing the functional tests leave in their process (env
| values, connections, timers, the in-process queue) reaches the pages the browser tests load
| (docs/testing.md, "Two processes"). With arguments (`npm test -- functional --files x`), one
| `ace test` run with those arguments, as before.
*/
import { spawnSync } from 'node:child_process'

const ace = (args) =>
  spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', 'test', ...args], {
    stdio: 'inherit',
  }).status ?? 1

const args = process.argv.slice(2)
if (args.length > 0) {
  process.exitCode = ace(args)
} else {
  const first = ace(['unit', 'functional'])
  const second = ace(['browser'])
  process.exitCode = first || second
}
