import type { RunnerVariables, VariableValue } from './define_plugin.js'

export interface VariableState {
  id: string
  name: string
  value?: VariableValue
  isSessionVariable?: boolean
}

/** The variables a runner reads and writes; the caller gets back what changed. */
export function createVariableStore(initial: readonly VariableState[]) {
  const variables = initial.map((v) => ({ ...v }))
  const changed = new Map<string, VariableValue>()
  const store: RunnerVariables = {
    get(idOrName) {
      const found =
        variables.find((v) => v.id === idOrName) ?? variables.find((v) => v.name === idOrName)
      return found?.value
    },
    set(id, value) {
      if (!id) return
      const found = variables.find((v) => v.id === id)
      if (!found) return
      found.value = value
      changed.set(id, value)
    },
    list: () => variables.map(({ id, name, value }) => ({ id, name, value })),
  }
  return { store, changes: () => [...changed.entries()].map(([id, value]) => ({ id, value })) }
}
