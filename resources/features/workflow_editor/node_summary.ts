import type { WorkflowCondition, WorkflowVariable } from '#shared/workflow/types'
import { asArray, isRecord } from '~/features/plugin_form/values'

/** Handle ids of a workflow node (React Flow tells edges apart by them). */
export const IN_HANDLE = 'in'
export const OUT_HANDLE = 'out'
/** The top handle of a model or tool node, where an agent's slot plugs in. */
export const ATTACHED_HANDLE = 'attached'
export const branchHandleId = (conditionId: string) => `branch:${conditionId}`
export const slotHandleId = (slot: string) => `slot:${slot}`

export type SourceHandle =
  { kind: 'out' } | { kind: 'branch'; conditionId: string } | { kind: 'slot'; slot: string }

export function parseSourceHandle(handle: string | null | undefined): SourceHandle | null {
  if (!handle || handle === OUT_HANDLE) return { kind: 'out' }
  const [kind, ...rest] = handle.split(':')
  const value = rest.join(':')
  if (kind === 'branch' && value) return { kind: 'branch', conditionId: value }
  if (kind === 'slot' && value) return { kind: 'slot', slot: value }
  return null
}

/** "Status Equal to paid AND Amount Greater than 10": what a branch tests, in one line. */
export function conditionSummary(
  condition: WorkflowCondition,
  variables: readonly WorkflowVariable[]
): string {
  const content = condition.content
  if (!isRecord(content)) return ''
  const comparisons = asArray(content.comparisons)
  const joiner = typeof content.logicalOperator === 'string' ? content.logicalOperator : 'AND'
  return comparisons
    .map((comparison) => {
      const variableId = comparison.variableId
      const variable =
        typeof variableId === 'string'
          ? (variables.find((candidate) => candidate.id === variableId)?.name ?? variableId)
          : ''
      return [variable, comparison.comparisonOperator, comparison.value]
        .filter((part) => typeof part === 'string' && part !== '')
        .join(' ')
    })
    .filter(Boolean)
    .join(` ${joiner} `)
}
