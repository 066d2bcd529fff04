import { errorToLog, type LogEntry, type VariableValue } from '#plugins/define_plugin'
import { substituteDeep } from '#plugins/substitute'
import { memoryAi } from '#plugins/testing/bot_context'
import type { WorkflowRunner, WorkflowRunnerContext } from '#engine/workflow/node_context'
import type {
  ExecutorEvent,
  ExecutorPorts,
  ExecutorWorkflow,
  NodeEvent,
} from '#engine/workflow/ports'
import type {
  WorkflowBlock,
  WorkflowCondition,
  WorkflowEdge,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'

/**
 * In-memory ports for executor tests: runners by node type (the real plugin runners or
 * small test ones), a clock the test moves, and every recorded event kept.
 */

export type TestRunner = (
  context: Omit<WorkflowRunnerContext, 'options'> & { options: Record<string, any> }
) => ReturnType<WorkflowRunner>

export interface MemoryPorts extends ExecutorPorts {
  events: ExecutorEvent[]
  sleeps: number[]
  clock: { now: number }
  calls: { type: string; nodeId: string; options: Record<string, unknown>; input: unknown }[]
}

export function memoryPorts(runners: Record<string, TestRunner>, start = Date.UTC(2030, 0, 1)) {
  const clock = { now: start }
  let ids = 0
  const ports: MemoryPorts = {
    events: [],
    sleeps: [],
    calls: [],
    clock,
    now: () => new Date(clock.now),
    newId: () => `exec-${++ids}`,
    async sleep(ms) {
      ports.sleeps.push(ms)
      clock.now += ms
    },
    record(event) {
      // Checkpoints carry the live state: keep a copy, as a store would.
      ports.events.push(
        event.type === 'checkpoint' ? { ...event, state: structuredClone(event.state) } : event
      )
    },
    async runNode({ block, variables, context, signal }) {
      const runner = runners[block.type]
      if (!runner) {
        return {
          logs: [{ status: 'error', description: `Unknown node type ${block.type}` }],
          variablesSet: [],
        }
      }
      // As the server does for variable fields (unsubstitutedKeysOf): ids and references stay.
      const options = substituteDeep(block.options ?? {}, variables, {
        skipKeys: ['variableId'],
      }).value
      ports.calls.push({ type: block.type, nodeId: block.id, options, input: context.input })
      const values = variables.map((variable) => ({ ...variable }))
      const changed = new Map<string, VariableValue>()
      const logs: LogEntry[] = []
      try {
        const result = await runner({
          surface: 'workflow',
          options,
          credentials: {},
          ai: memoryAi(),
          variables: {
            get: (idOrName) =>
              (values.find((v) => v.id === idOrName) ?? values.find((v) => v.name === idOrName))
                ?.value,
            set(id, value) {
              const found = values.find((v) => v.id === id)
              if (!found || !id) return
              found.value = value
              changed.set(id, value)
            },
            list: () => values.map(({ id, name, value }) => ({ id, name, value })),
          },
          logger: {
            success: (description, details) =>
              logs.push({ status: 'success', description, details }),
            info: (description, details) => logs.push({ status: 'info', description, details }),
            error: (description, details) => logs.push({ status: 'error', description, details }),
          },
          http: { request: () => Promise.reject(new Error('No HTTP in executor tests')) },
          storage: {
            put: () => Promise.reject(new Error('No storage in executor tests')),
            read: () => Promise.reject(new Error('No storage in executor tests')),
          },
          signal,
          workflow: context,
        })
        return {
          result: result ?? undefined,
          logs,
          variablesSet: [...changed].map(([id, value]) => ({ id, value })),
        }
      } catch (error) {
        logs.push(errorToLog(error))
        return { logs, variablesSet: [...changed].map(([id, value]) => ({ id, value })) }
      }
    },
  }
  return ports
}

export interface BlockSpec {
  id: string
  type?: string
  title?: string
  options?: Record<string, unknown>
  isDisabled?: boolean
  conditions?: WorkflowCondition[]
}

/** [from, to] or [from, to, conditionId]; a fourth item true marks an attachment. */
export type EdgeSpec = [string, string, string?, boolean?]

export function workflowOf(
  blocks: BlockSpec[],
  edges: EdgeSpec[],
  extra: { settings?: WorkflowSettings; variables?: WorkflowVariable[]; root?: string } = {}
): ExecutorWorkflow {
  const fullBlocks: WorkflowBlock[] = blocks.map((block) => ({
    type: 'emit',
    graphCoordinates: { x: 0, y: 0 },
    ...block,
  }))
  const fullEdges: WorkflowEdge[] = edges.map(([from, to, conditionId, isAttachment], index) => ({
    id: `e${index}-${from}-${to}`,
    from: conditionId ? { blockId: from, conditionId } : { blockId: from },
    to: { blockId: to },
    ...(isAttachment ? { isAttachment: true, attachmentName: 'tools' } : {}),
  }))
  return {
    id: 'wf1',
    workspaceId: 'ws1',
    ownerId: 'user1',
    executable: {
      blocks: fullBlocks,
      edges: fullEdges,
      root_block: extra.root ?? fullBlocks[0].id,
      wait_blocks: fullBlocks.filter((b) => b.type === 'workflow-wait').map((b) => b.id),
    },
    settings: extra.settings ?? {},
    variables: extra.variables ?? [],
  }
}

/** The node events of a run, as "nodeId:status" strings, in order. */
export function trail(events: ExecutorEvent[]) {
  return events
    .filter((event): event is NodeEvent => event.type === 'node')
    .map((event) => `${event.nodeId}:${event.status}`)
}

/** The last event of a node with a final status. */
export function finalEvent(events: ExecutorEvent[], nodeId: string) {
  return events
    .filter(
      (event): event is NodeEvent =>
        event.type === 'node' && event.nodeId === nodeId && event.status !== 'running'
    )
    .at(-1)
}
