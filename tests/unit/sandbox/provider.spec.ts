import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApplicationService } from '@adonisjs/core/types'
import SandboxProvider from '#sandbox/sandbox_provider'
import { configureSandbox, disposeSandbox, sandboxPool } from '#sandbox/sandbox'
import type { SandboxPoolOptions } from '#sandbox/types'

test.group('Sandbox | provider', (group) => {
  group.each.teardown(async () => {
    await disposeSandbox()
    configureSandbox(app.config.get<SandboxPoolOptions>('sandbox', {}))
  })

  test('config/sandbox.ts (the SANDBOX_* variables) sets up the shared pool of the process', async ({
    assert,
  }) => {
    const config = { size: 3, maxPerWorkspace: 1, maxQueuedPerWorkspace: 0 }
    const fakeApp = { config: { get: () => config } } as unknown as ApplicationService
    await disposeSandbox()
    new SandboxProvider(fakeApp).register()
    const pool = sandboxPool()
    assert.include(pool.stats(), { size: 3, maxPerWorkspace: 1, reserve: 1 })
    const stop = new AbortController()
    const held = pool.run('while (true) {}', { workspaceId: 'A', signal: stop.signal })
    const refused = await pool.run('return 1', { workspaceId: 'A' })
    assert.equal(!refused.ok && refused.error.name, 'SandboxBusyError')
    stop.abort()
    await held
  })

  test('unset variables keep the pool defaults', async ({ assert }) => {
    const config = { size: undefined, maxPerWorkspace: undefined, maxQueuedPerWorkspace: undefined }
    const fakeApp = { config: { get: () => config } } as unknown as ApplicationService
    await disposeSandbox()
    new SandboxProvider(fakeApp).register()
    const stats = sandboxPool().stats()
    assert.isAtLeast(stats.size, 2)
    assert.equal(stats.maxPerWorkspace, Math.floor(stats.size / 2))
  })
})
