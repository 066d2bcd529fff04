import env from '#start/env'
import type { SandboxPoolOptions } from '#sandbox/types'

/**
 * The shared sandbox pool of this process (web server, queue worker or ace command): each
 * process has its own isolates, cap and queues (docs/sandbox.md). Unset values keep the
 * pool's defaults.
 */
const sandboxConfig: SandboxPoolOptions = {
  size: env.get('SANDBOX_POOL_SIZE'),
  maxPerWorkspace: env.get('SANDBOX_WORKSPACE_CONCURRENCY'),
  maxQueuedPerWorkspace: env.get('SANDBOX_WORKSPACE_QUEUE'),
}

export default sandboxConfig
