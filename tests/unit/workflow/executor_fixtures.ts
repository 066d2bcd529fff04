import { WorkflowExecutor } from '#engine/workflow/executor'
import { run as conditionRunner } from '../../../plugins/condition/runner.js'
import { run as setVariableRunner } from '../../../plugins/set-variable/runner.js'
import { run as waitRunner } from '../../../plugins/wait/runner.js'
import { run as respondRunner } from '../../../plugins/respond-to-webhook/runner.js'
import { run as manualRunner } from '../../../plugins/manual-trigger/runner.js'
import { memoryPorts, workflowOf, type TestRunner } from './memory_ports.js'

export const emit: TestRunner = ({ options }) => ({ output: options.output ?? options })
export const echo: TestRunner = ({ workflow }) => ({ output: workflow?.input })
export const fail: TestRunner = ({ options }) => {
  throw new Error(String(options.message ?? 'Boom'))
}

export const RUNNERS: Record<string, TestRunner> = {
  'manual-trigger': manualRunner,
  'workflow-condition': conditionRunner,
  'workflow-set-variable': setVariableRunner,
  'workflow-wait': waitRunner,
  'respond-to-webhook': respondRunner,
  emit,
  echo,
  fail,
}

export function executorFor(workflow: ReturnType<typeof workflowOf>, runners = RUNNERS) {
  const ports = memoryPorts(runners)
  return { ports, executor: new WorkflowExecutor(workflow, ports) }
}

/** A state as it comes back from the database. */
export function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value))
}
