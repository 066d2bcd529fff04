/*
| Who may start a sandbox run, and in which order (docs/sandbox.md, "Sharing the pool between
| workspaces"). isolated-vm cannot pause a busy isolate, only kill it, so fairness comes from
| admission: a per-workspace cap below the pool size, a reserve that only a workspace with
| nothing in flight may use, and per-workspace queues served in a fair order.
*/

/** A run the scheduler refused or gave up on; `name` is what the caller sees as the error name. */
export class SandboxRefusal extends Error {
  constructor(name: 'SandboxBusyError' | 'AbortError' | 'SandboxError', message: string) {
    super(message)
    this.name = name
  }
}

interface Waiter {
  grant(): void
  fail(error: Error): void
}

interface Tenant {
  id: string
  running: number
  queue: Waiter[]
  /** Increases each time the tenant starts a run: the least recently served waits least. */
  servedAt: number
}

export interface FairSchedulerOptions {
  /** Runs at once for workspaces in general. */
  size: number
  /** Extra runs at once, only for a workspace that has no run in flight. */
  reserve: number
  /** Runs of one workspace at once. */
  perWorkspace: number
  /** Runs of one workspace waiting at once; more are refused. */
  maxQueued: number
  /** How long a run may wait for its turn before it is refused. */
  maxWaitMs: number
}

export interface WorkspaceLoad {
  running: number
  waiting: number
}

export class FairScheduler {
  readonly #options: FairSchedulerOptions
  readonly #tenants = new Map<string, Tenant>()
  /** Tenants with at least one waiting run. */
  readonly #waitingTenants = new Set<Tenant>()
  #running = 0
  #waiting = 0
  #serial = 0
  #closed: Error | null = null

  constructor(options: FairSchedulerOptions) {
    this.#options = options
  }

  get running(): number {
    return this.#running
  }

  get waiting(): number {
    return this.#waiting
  }

  load(): Record<string, WorkspaceLoad> {
    const out: Record<string, WorkspaceLoad> = {}
    for (const tenant of this.#tenants.values()) {
      out[tenant.id] = { running: tenant.running, waiting: tenant.queue.length }
    }
    return out
  }

  /**
   * Resolves when the run may start (the caller must then call `release` exactly once);
   * rejects with a SandboxRefusal when the queue is full, the wait is too long, the signal
   * aborts or the scheduler is closed.
   */
  acquire(workspaceId: string, signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closed)
    if (signal?.aborted) return Promise.reject(cancelledBeforeStart())
    const tenant = this.#tenant(workspaceId)
    // No one eligible ever waits (every release dispatches), so starting at once overtakes
    // nobody; a tenant's own waiting runs keep their order.
    if (tenant.queue.length === 0 && this.#canStart(tenant)) {
      this.#start(tenant)
      return Promise.resolve()
    }
    const { maxQueued, maxWaitMs, perWorkspace } = this.#options
    if (tenant.queue.length >= maxQueued) {
      this.#forgetIfIdle(tenant)
      return Promise.reject(
        new SandboxRefusal(
          'SandboxBusyError',
          `Too many scripts of this workspace are waiting for the sandbox (at most ${maxQueued} may wait, ${perWorkspace} run at once); try again later`
        )
      )
    }
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
      }
      const leave = (error: Error) => {
        const index = tenant.queue.indexOf(waiter)
        if (index >= 0) {
          tenant.queue.splice(index, 1)
          this.#waiting--
          if (tenant.queue.length === 0) this.#waitingTenants.delete(tenant)
          this.#forgetIfIdle(tenant)
        }
        cleanup()
        reject(error)
      }
      const onAbort = () => leave(cancelledBeforeStart())
      const waiter: Waiter = {
        grant: () => {
          cleanup()
          resolve()
        },
        fail: (error) => {
          cleanup()
          reject(error)
        },
      }
      const timer = setTimeout(
        () =>
          leave(
            new SandboxRefusal(
              'SandboxBusyError',
              `The script waited ${maxWaitMs} ms for the sandbox without starting (this workspace runs at most ${perWorkspace} at once); try again later`
            )
          ),
        maxWaitMs
      )
      tenant.queue.push(waiter)
      this.#waiting++
      this.#waitingTenants.add(tenant)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  release(workspaceId: string): void {
    const tenant = this.#tenants.get(workspaceId)
    if (!tenant || tenant.running === 0) return
    tenant.running--
    this.#running--
    this.#forgetIfIdle(tenant)
    this.#dispatch()
  }

  /** Refuses every waiting and later run with `error`; runs in flight are the caller's. */
  close(error: Error): void {
    this.#closed = error
    for (const tenant of this.#waitingTenants) {
      for (const waiter of tenant.queue.splice(0)) waiter.fail(error)
    }
    this.#waitingTenants.clear()
    this.#waiting = 0
  }

  #tenant(id: string): Tenant {
    let tenant = this.#tenants.get(id)
    if (!tenant) {
      tenant = { id, running: 0, queue: [], servedAt: 0 }
      this.#tenants.set(id, tenant)
    }
    return tenant
  }

  #forgetIfIdle(tenant: Tenant): void {
    if (tenant.running === 0 && tenant.queue.length === 0) this.#tenants.delete(tenant.id)
  }

  #canStart(tenant: Tenant): boolean {
    const { size, reserve, perWorkspace } = this.#options
    if (tenant.running >= perWorkspace) return false
    if (this.#running < size) return true
    return tenant.running === 0 && this.#running < size + reserve
  }

  #start(tenant: Tenant): void {
    tenant.running++
    tenant.servedAt = ++this.#serial
    this.#running++
  }

  /**
   * Hands free capacity to waiting runs: the workspace with the fewest runs in flight first,
   * then the one served least recently (round-robin among equals).
   */
  #dispatch(): void {
    for (;;) {
      let next: Tenant | undefined
      for (const tenant of this.#waitingTenants) {
        if (!this.#canStart(tenant)) continue
        if (
          !next ||
          tenant.running < next.running ||
          (tenant.running === next.running && tenant.servedAt < next.servedAt)
        ) {
          next = tenant
        }
      }
      if (!next) return
      const waiter = next.queue.shift()!
      this.#waiting--
      if (next.queue.length === 0) this.#waitingTenants.delete(next)
      this.#start(next)
      waiter.grant()
    }
  }
}

function cancelledBeforeStart(): SandboxRefusal {
  return new SandboxRefusal('AbortError', 'The script was cancelled before it started')
}
