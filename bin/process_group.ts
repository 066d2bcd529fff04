import { spawnSync } from 'node:child_process'

/**
 * Live processes in the process group led by `leader`: a multi-process server's primary and
 * its web processes, which must all be gone after a SIGTERM.
 */
export function groupPids(leader: number): number[] {
  // A zombie has exited already (its parent went first and nothing has reaped it yet).
  const out = spawnSync('ps', ['-o', 'pid=,stat=', '-g', String(leader)], {
    encoding: 'utf8',
  }).stdout
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => Number(pid) > 0 && !stat?.startsWith('Z'))
    .map(([pid]) => Number(pid))
}
