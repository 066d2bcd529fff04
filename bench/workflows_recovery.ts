/*
| The workflows bench's recovery run (bench/workflows.bench.ts): a BullMQ worker killed with
| runs in flight, a new one started, and how long the held runs take to finish.
*/
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import knex from 'knex'
import { stop } from './processes.js'
import {
  BASE,
  DATABASE_URL,
  BENCH_PREFIX,
  env,
  buildDir,
  node,
  waitForHealth,
} from './workflows_server.js'

/** Webhook (answered at once) -> wait 1 s -> POST to the listener -> set variable. */
function recoveryWorkflow(url: string) {
  return {
    name: 'Bench recovery',
    blocks: [
      {
        id: 'hook',
        type: 'webhook-trigger',
        graphCoordinates: { x: 0, y: 0 },
        options: { method: 'POST', responseMode: 'immediately' },
      },
      {
        id: 'wait',
        type: 'workflow-wait',
        graphCoordinates: { x: 300, y: 0 },
        options: { amount: 1, unit: 'seconds' },
      },
      {
        id: 'post',
        type: 'workflow-http-request',
        graphCoordinates: { x: 600, y: 0 },
        options: { method: 'POST', url, body: '{ "id": {{$node.hook.body.id}} }' },
      },
      {
        id: 'set',
        type: 'workflow-set-variable',
        graphCoordinates: { x: 900, y: 0 },
        options: { variableId: 'v-done', value: 'yes' },
      },
    ],
    edges: [
      { id: 'e1', from: { blockId: 'hook' }, to: { blockId: 'wait' } },
      { id: 'e2', from: { blockId: 'wait' }, to: { blockId: 'post' } },
      { id: 'e3', from: { blockId: 'post' }, to: { blockId: 'set' } },
    ],
    variables: [{ id: 'v-done', name: 'Done' }],
    // A long timeout: recovery must not come from it.
    settings: { concurrency: 5, timeout: 600 },
  }
}

export const RECOVERY_CALLS = 60

function startWorker(prefix: string) {
  const child = spawn(process.execPath, ['--no-node-snapshot', 'bin/console.js', 'queue:work'], {
    cwd: buildDir(),
    env: env('bullmq', prefix),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  const ready = (async () => {
    while (!/Working \d+ job types/.test(output)) {
      if (child.exitCode !== null) throw new Error(`the worker exited:\n${output}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  })()
  return { child, ready }
}

/** The recovery after a worker kill, on BullMQ (docs/queue.md, "Leases"). */
export async function measureRecovery(token: string) {
  const calls: { id: number; key: string | undefined; answered: boolean }[] = []
  const listener = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const id = Number(JSON.parse(body || '{}').id)
      const call = { id, key: request.headers['idempotency-key'] as string, answered: false }
      calls.push(call)
      // A 1 to 3 s step outside.
      setTimeout(
        () => {
          call.answered = true
          response.end('{"ok":true}')
        },
        1000 + (id % 5) * 500
      )
    })
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/orders`
  const prefix = `${BENCH_PREFIX}-wf-recovery-${Date.now()}`
  const server = node(['bin/server.js'], 'bullmq', prefix)
  const db = knex({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 2 } })
  const first = startWorker(prefix)
  let second: ReturnType<typeof startWorker> | null = null
  try {
    await waitForHealth()
    await first.ready
    const auth = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
    const me = await (await fetch(`${BASE}/api/v1/workspaces`, { headers: auth })).json()
    const created = await fetch(`${BASE}/api/v1/workflows`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ workspaceId: me.workspaces[0].id, workflow: recoveryWorkflow(url) }),
    })
    if (!created.ok) throw new Error(`could not create the workflow: ${await created.text()}`)
    const id = (await created.json()).workflow.id
    for (const step of ['publish', 'activate']) {
      const answer = await fetch(`${BASE}/api/v1/workflows/${id}/${step}`, {
        method: 'POST',
        headers: auth,
      })
      if (!answer.ok) throw new Error(`could not ${step}: ${await answer.text()}`)
    }
    for (let n = 1; n <= RECOVERY_CALLS; n++) {
      const answer = await fetch(`${BASE}/api/v1/workflows/${id}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: n }),
      })
      if (!answer.ok) throw new Error(`webhook call ${n} failed: ${answer.status}`)
    }
    let maxRunning = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const [row] = await db('workflow_runs')
          .where({ workflow_id: id, status: 'running' })
          .count('* as total')
        maxRunning = Math.max(maxRunning, Number(row.total))
        await new Promise((r) => setTimeout(r, 100))
      }
    })()

    while (calls.filter((call) => !call.answered).length < 3) {
      await new Promise((r) => setTimeout(r, 20))
    }
    first.child.kill('SIGKILL')
    await once(first.child, 'exit')
    const killedAt = Date.now()
    const held = (
      await db('workflow_runs').where({ workflow_id: id, status: 'running' }).select('id')
    ).map((row) => row.id as string)
    await new Promise((r) => setTimeout(r, 5000))
    second = startWorker(prefix)
    await second.ready
    const upAt = Date.now()
    let heldDoneAt: number | null = held.length === 0 ? upAt : null
    while (true) {
      const rows = await db('workflow_runs').where({ workflow_id: id }).select('id', 'status')
      const done = rows.filter((row) => ['success', 'error'].includes(row.status))
      if (heldDoneAt === null && held.every((runId) => done.some((row) => row.id === runId))) {
        heldDoneAt = Date.now()
      }
      if (rows.length === RECOVERY_CALLS && done.length === RECOVERY_CALLS) break
      if (Date.now() - upAt > 600_000) throw new Error('runs not done 10 minutes after the kill')
      await new Promise((r) => setTimeout(r, 100))
    }
    const allDoneAt = Date.now()
    sampling = false
    await sampler
    const failed = Number(
      (await db('workflow_runs').where({ workflow_id: id, status: 'error' }).count('* as total'))[0]
        .total
    )
    const byRun = new Map<number, Set<string | undefined>>()
    for (const call of calls) byRun.set(call.id, (byRun.get(call.id) ?? new Set()).add(call.key))
    const repeated = calls.length - byRun.size
    const keyMismatches = [...byRun.values()].filter((keys) => keys.size > 1).length
    return {
      heldRuns: held.length,
      heldDoneSeconds: Number(((heldDoneAt! - upAt) / 1000).toFixed(1)),
      allDoneSeconds: Number(((allDoneAt - upAt) / 1000).toFixed(1)),
      sinceKillSeconds: Number(((allDoneAt - killedAt) / 1000).toFixed(1)),
      maxRunning,
      failed,
      repeated,
      keyMismatches,
    }
  } finally {
    for (const w of [first, second]) if (w && w.child.exitCode === null) w.child.kill('SIGKILL')
    await stop(server)
    await db.destroy()
    listener.closeAllConnections()
    listener.close()
  }
}
