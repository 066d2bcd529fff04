import crypto, { createHash } from 'node:crypto'
import { newId } from '#services/ids'
import { isPluginAllowedIn } from '#services/marketplace'
import { pluginRegistry } from '#services/plugin_registry'
import { credentialsFor, runWithContext, substitutedOptions } from '#services/runner_context'
import {
  storedOptionsOf,
  storedActionOf,
  type LogEntry,
  type Runner,
  type RunnerContext,
} from '#plugins/define_plugin'
import { issuesOfBlock } from '#plugins/block_issues'
import type { AttachedNode } from '#engine/workflow/node_context'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import type { BlockIssue } from '#shared/block_issues'
import type { CapabilityTurn } from '#services/capability_stamp'
import type {
  ExecutorEvent,
  ExecutorPorts,
  NodeRunOutcome,
  NodeRunRequest,
} from '#engine/workflow/ports'

/**
 * The workflow executor's ports on the server: node runners through runner_context
 * (substitution, credentials of the workflow's workspace, guarded HTTP, sandbox), the
 * marketplace's per-plan switches, the clock and ids. Recording is the caller's
 * (run_workflow.ts persists and broadcasts).
 */

function failed(description: string): NodeRunOutcome {
  const log: LogEntry = { status: 'error', description }
  return { logs: [log], variablesSet: [] }
}

/** Resolves after ms, or as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/**
 * The nodes attached to `request.block` (attachment edges leave the agent towards them).
 * Their contexts are built on demand from the running node's own context, so what they
 * log, charge and set lands on the running node.
 */
export function attachmentsOf(
  registry: PluginRegistry,
  request: NodeRunRequest,
  host: RunnerContext,
  turn?: CapabilityTurn
): AttachedNode[] {
  const { executable, workspaceId, ownerId } = request.workflow
  const from = request.block.id
  // Most nodes have none: no index of the blocks for them.
  if (!executable.edges?.some((edge) => edge.isAttachment && edge.from?.blockId === from)) {
    return []
  }
  const blocks = new Map((executable.blocks ?? []).map((block) => [block.id, block]))
  const attached: AttachedNode[] = []
  for (const edge of executable.edges ?? []) {
    if (!edge.isAttachment || edge.from?.blockId !== request.block.id) continue
    const block = blocks.get(edge.to?.blockId)
    if (!block) continue
    const stored = (block.options ?? {}) as Record<string, unknown>
    const plugin = registry.get(block.type)
    const options = plugin ? storedOptionsOf(plugin, block.type, stored, 'workflow') : stored
    attached.push({
      id: block.id,
      type: block.type,
      title: block.title,
      slot: edge.attachmentName ?? '',
      options,
      exportOf: (name) => registry.exportOf(block.type, name),
      async context() {
        if (!plugin || !plugin.serves.includes('workflow')) {
          throw new Error(`Unknown node type "${block.type}"`)
        }
        if (!(await isPluginAllowedIn(plugin.id, workspaceId, turn))) {
          throw new Error(`${plugin.name} is not enabled on this workspace's plan`)
        }
        const input = {
          plugin,
          options,
          variables: request.variables,
          workspaceId,
          ownerId,
          signal: request.signal,
        }
        const logs: LogEntry[] = []
        const credentials = await credentialsFor(input, logs)
        if (credentials === null) throw new Error(logs[0]?.description ?? 'Credentials missing')
        // The running node's workflow part is added to `host` after this list is made: it
        // is the running node's, not the attached one's.
        const { workflow: running, ...shared } = host as RunnerContext & { workflow?: unknown }
        return { ...shared, options: await substitutedOptions(input), credentials }
      },
    })
  }
  return attached
}

/**
 * The key of a node's visit in a run (RunnerContext.idempotencyKey): derived, not stored,
 * so any worker running the visit again after a crash computes the same one.
 */
export function idempotencyKeyOf(runId: string, nodeId: string, visit = 0) {
  const text = `${runId}\n${nodeId}\n${visit}`
  // The one-shot digest (Node 20.12+) skips the Hash object made at every node visit.
  const digest = oneShotHash
    ? oneShotHash('sha256', text)
    : createHash('sha256').update(text).digest('hex')
  return `fc-${digest.slice(0, 40)}`
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string) => string }).hash

/** Whether a node attached to the running one (an agent's model or tool) uses a credential. */
function attachedCredentials(request: NodeRunRequest) {
  const blocks = request.workflow.executable.blocks ?? []
  return (request.workflow.executable.edges ?? []).some(
    (edge) =>
      edge.isAttachment &&
      edge.from?.blockId === request.block.id &&
      blocks.some((block) => block.id === edge.to?.blockId && block.options?.credentialsId)
  )
}

/**
 * A published version's nodes are the same objects from run to run (runnable_workflow.ts
 * keeps it parsed while its text is unchanged), and their issues depend on the node and its
 * plugin only: checked once per node object rather than at every visit.
 */
const nodeIssues = new WeakMap<object, { plugin: AnyPlugin; issues: Promise<BlockIssue[]> }>()

function issuesOfNode(plugin: AnyPlugin, block: NodeRunRequest['block']) {
  const known = nodeIssues.get(block)
  if (known?.plugin === plugin) return known.issues
  const issues = issuesOfBlock(plugin, block, 'workflow')
  nodeIssues.set(block, { plugin, issues })
  // A failed check is not kept: the next visit checks again.
  issues.catch(() => nodeIssues.delete(block))
  return issues
}

export async function runNodeWith(
  registry: PluginRegistry,
  request: NodeRunRequest,
  /** The run's plan checks share the stamp read with its workflow (capabilityTurn). */
  turn?: CapabilityTurn
): Promise<NodeRunOutcome> {
  const { block, workflow } = request
  const plugin = registry.get(block.type)
  if (!plugin || !plugin.serves.includes('workflow')) {
    return failed(`Unknown node type "${block.type}"`)
  }
  if (!(await isPluginAllowedIn(plugin.id, workflow.workspaceId, turn))) {
    return failed(`${plugin.name} is not enabled on this workspace's plan`)
  }
  // A node stored under a folded plugin's former id runs as that plugin.
  const options = storedOptionsOf(
    plugin,
    block.type,
    (block.options ?? {}) as Record<string, unknown>,
    'workflow'
  )
  // Publishing refuses nodes with issues; versions published before that are caught here,
  // so runners get only options their fields accept (app/plugins/block_issues.ts).
  const [issue] = await issuesOfNode(plugin, block)
  if (issue) return failed(`${block.title || plugin.name}: ${issue.message}`)
  const action = storedActionOf(plugin, options)
  const runner = (await registry.runnerOf(plugin.id, action)) as Runner<any, any> | undefined
  if (!runner)
    return failed(`${plugin.name}${action ? ` (${action})` : ''} cannot run on the server`)
  // The common runner context knows bots only: the workflow's part is added to it. Assigned,
  // not spread: a spread reads (and so makes) the context's lazy parts, a timeout signal,
  // an HTTP client, the storage and the sandbox per node, which most nodes never use.
  const withWorkflow: Runner<any, any> = (context) =>
    runner(
      Object.assign(context, {
        workflow: {
          ...request.context,
          attachments: attachmentsOf(registry, request, context, turn),
        },
      })
    )
  const timeoutSeconds = Number(workflow.settings?.timeout)
  const output = await runWithContext(withWorkflow, {
    plugin,
    options,
    variables: request.variables,
    workspaceId: workflow.workspaceId,
    ownerId: workflow.ownerId,
    signal: request.signal,
    idempotencyKey: idempotencyKeyOf(request.context.runId, block.id, request.visit),
    usesCredentials: attachedCredentials(request),
    timeoutMs:
      Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 : undefined,
  })
  return {
    result: (output.result ?? undefined) as NodeRunOutcome['result'],
    logs: output.logs,
    variablesSet: output.variablesSet,
  }
}

export async function workflowPorts(
  record: (event: ExecutorEvent) => void | Promise<void>,
  turn?: CapabilityTurn
): Promise<ExecutorPorts> {
  const registry = await pluginRegistry()
  return {
    runNode: (request) => runNodeWith(registry, request, turn),
    record,
    now: () => new Date(),
    newId,
    sleep,
    typeName: (type) => registry.get(type)?.name,
  }
}
