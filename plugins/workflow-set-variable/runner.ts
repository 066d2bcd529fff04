import type { WorkflowRunner } from '#sdk/runner'
import type plugin from './index.js'

/**
 * Sets the variable (picked by id; a name works too, for hand-written JSON) to the value,
 * whose {{variables}} and {{$...}} references are already substituted. The node passes
 * its input on.
 */
export const run: WorkflowRunner<typeof plugin> = ({ options, variables, logger }) => {
  const wanted = options.variableId?.trim()
  if (!wanted) throw new Error('Set variable: no variable selected')
  const target =
    variables.list().find((variable) => variable.id === wanted) ??
    variables.list().find((variable) => variable.name === wanted)
  if (!target || target.name.startsWith('$')) {
    throw new Error(`Set variable: the variable "${wanted}" does not exist`)
  }
  const value = options.value ?? ''
  variables.set(target.id, value)
  logger.success(`${target.name} = ${value.length > 200 ? `${value.slice(0, 200)}...` : value}`)
}
