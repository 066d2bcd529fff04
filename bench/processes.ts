import type { ChildProcess } from 'node:child_process'

/**
 * Stops a server or worker the bench started: SIGTERM first, so it ends gracefully and
 * --cpu-prof gets to write its profile, then SIGKILL after 15 s.
 */
export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(timer)
}
