import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import type { Runner, VariableValue } from '#sdk/plugin'
import { substituteVariables } from '#sdk/runner'
import type plugin from './index.js'

/**
 * The 18 kinds of value of Set variable. Custom text has its {{variables}} replaced;
 * Custom code runs in the sandbox (or in the browser when isExecutedOnClient) and its
 * returned value is stored.
 */

type Options = Parameters<Runner<typeof plugin>>[0]['options']

function asList(value: VariableValue): string[] {
  if (Array.isArray(value)) return value.map(String)
  if (value === undefined || value === null || value === '') return []
  if (typeof value === 'string') {
    // A JSON array stored as text still counts as a list.
    if (value.startsWith('[')) {
      try {
        const parsed = JSON.parse(value)
        if (Array.isArray(parsed))
          return parsed.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
      } catch {}
    }
    return [value]
  }
  return [String(value)]
}

function now(options: Options) {
  const zone = options.timeZone?.trim()
  const current = DateTime.now()
  if (!zone) return current.toUTC()
  const zoned = current.setZone(zone)
  return zoned.isValid ? zoned : current.toUTC()
}

function momentOfDay(hour: number) {
  if (hour >= 5 && hour < 12) return 'morning'
  if (hour >= 12 && hour < 18) return 'afternoon'
  if (hour >= 18 && hour < 22) return 'evening'
  return 'night'
}

/** Code that is an expression is returned; code with statements must say `return`. */
function asFunctionBody(code: string) {
  return /\breturn\b/.test(code) ? code : `return (${code}\n)`
}

function codeWithVariables(code: string) {
  return code.replace(
    /\{\{([^{}]+?)\}\}/g,
    (_, name: string) => `variables[${JSON.stringify(name.trim())}]`
  )
}

function toValue(value: unknown): VariableValue {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * A workflow node sets the variable (picked by id; a name works too, for hand-written JSON)
 * to the value, whose references are already substituted, and passes its input on.
 */
const runInWorkflow: Runner<typeof plugin> = ({ options, variables, logger }) => {
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

export const run: Runner<typeof plugin> = async (context) => {
  if (context.surface === 'workflow') return runInWorkflow(context)
  const { options, variables, sandbox, bot, logger } = context
  const target = options.variableId
  if (!target) {
    logger.error('Set variable: no variable selected')
    return {}
  }
  const set = (value: VariableValue) => ({ variablesToSet: [{ id: target, value }] })
  const list = variables.list()

  switch (options.type ?? 'Custom') {
    case 'Custom': {
      const expression = options.expressionToEvaluate ?? ''
      if (!options.isCode) return set(substituteVariables(expression, list))
      const body = asFunctionBody(codeWithVariables(expression))
      if (options.isExecutedOnClient) {
        return {
          clientSideActions: [
            {
              type: 'setVariable',
              setVariable: {
                scriptToExecute: {
                  content: body,
                  args: list.map((v) => ({ id: v.name, value: v.value ?? null })),
                },
              },
            },
          ],
          pause: true,
          saveReplyInVariableId: target,
        }
      }
      if (!sandbox) return set(null)
      const values = Object.fromEntries(list.map((v) => [v.name, v.value ?? null]))
      return set(toValue(await sandbox.run(body, values)))
    }
    case 'Today':
      return set(now(options).toISODate())
    case 'Yesterday':
      return set(now(options).minus({ days: 1 }).toISODate())
    case 'Tomorrow':
      return set(now(options).plus({ days: 1 }).toISODate())
    case 'Now':
      return set(now(options).toISO())
    case 'Moment of the day':
      return set(momentOfDay(now(options).hour))
    case 'Empty':
      return set(null)
    case 'Environment name':
      return set(bot?.environment ?? 'web')
    case 'User ID':
      return set(bot?.contact?.phoneNumber ?? bot?.resultId ?? bot?.sessionId ?? null)
    case 'Result ID':
      return set(bot?.resultId ?? null)
    case 'Random ID':
      return set(randomUUID())
    case 'Phone number':
      return set(bot?.contact?.phoneNumber ?? null)
    case 'Contact name':
      return set(bot?.contact?.name ?? null)
    case 'Transcript': {
      const lines = (bot?.transcript() ?? [])
        .filter((entry) => entry.text)
        .map((entry) => `${entry.role === 'bot' ? 'Assistant' : 'User'}: ${entry.text}`)
      return set(lines.join('\n'))
    }
    case 'Pop':
    case 'Shift': {
      const items = asList(variables.get(target))
      const removed = options.type === 'Pop' ? items.pop() : items.shift()
      const changes = [{ id: target, value: items as VariableValue }]
      if (options.saveItemInVariableId) {
        changes.push({ id: options.saveItemInVariableId, value: removed ?? null })
      }
      return { variablesToSet: changes }
    }
    case 'Map item with same index': {
      const params = options.mapListItemParams ?? {}
      const item = variables.get(params.baseItemVariableId ?? '')
      const base = asList(variables.get(params.baseListVariableId ?? ''))
      const targetList = asList(variables.get(params.targetListVariableId ?? ''))
      const index = base.indexOf(String(item ?? ''))
      return set(index >= 0 ? (targetList[index] ?? null) : null)
    }
    case 'Append value(s)': {
      const items = asList(variables.get(target))
      const added = options.item ?? ''
      return set([...items, added])
    }
    default:
      logger.error(`Set variable: unknown type "${options.type}"`)
      return {}
  }
}
