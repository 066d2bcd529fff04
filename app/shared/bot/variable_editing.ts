import { createId } from './new_bot.js'
import type { BotV6, Variable } from './types.js'
import { sanitizeVariableName } from './variable_names.js'
import { MAX_VARIABLE_SUGGESTIONS } from './editing.js'

/** The bot's variables as the editor changes them (editing.ts's rules). */

/**
 * The name the picker would create for what the builder typed, or undefined when
 * nothing is left after sanitizing or a variable of that name exists already (the
 * picker then shows no "create" entry).
 */
export function variableToCreate(variables: Variable[], typed: string): string | undefined {
  const name = sanitizeVariableName(typed).trim()
  if (name === '' || variables.some((variable) => variable.name === name)) return undefined
  return name
}

/**
 * Creates a variable from the picker: id 'v' + a new id, isSessionVariable true. The
 * name is sanitized and trimmed; an empty one is refused (variable undefined). A name
 * already taken gives back that existing variable rather than a twin.
 */
export function createVariable(bot: BotV6, name: string): { bot: BotV6; variable?: Variable } {
  const clean = sanitizeVariableName(name).trim()
  if (clean === '') return { bot }
  const existing = bot.variables.find((variable) => variable.name === clean)
  if (existing) return { bot, variable: existing }
  const variable: Variable = { id: `v${createId()}`, name: clean, isSessionVariable: true }
  return { bot: { ...bot, variables: [...bot.variables, variable] }, variable }
}

/**
 * Renames inline. A blank name is ignored (a variable always has a name), and so is a name another variable
 * already has: {{Name}} references must point at one variable.
 */
export function renameVariable(bot: BotV6, variableId: string, name: string): BotV6 {
  const clean = sanitizeVariableName(name).trim()
  if (clean === '') return bot
  if (bot.variables.some((variable) => variable.name === clean && variable.id !== variableId)) {
    return bot
  }
  let changed = false
  const variables = bot.variables.map((variable) => {
    if (variable.id !== variableId || variable.name === clean) return variable
    changed = true
    return { ...variable, name: clean }
  })
  return changed ? { ...bot, variables } : bot
}

/**
 * Removes a variable from the list. Blocks still naming its id keep it: the engine reads
 * an unknown variable as empty, and undo brings the variable back intact.
 */
export function removeVariable(bot: BotV6, variableId: string): BotV6 {
  if (!bot.variables.some((variable) => variable.id === variableId)) return bot
  return { ...bot, variables: bot.variables.filter((variable) => variable.id !== variableId) }
}

/** The picker's list: names containing the query, case-insensitively, at most 50. */
export function suggestVariables(variables: Variable[], query: string): Variable[] {
  const needle = query.trim().toLowerCase()
  const matches = needle
    ? variables.filter((variable) => variable.name.toLowerCase().includes(needle))
    : variables
  return matches.slice(0, MAX_VARIABLE_SUGGESTIONS)
}
