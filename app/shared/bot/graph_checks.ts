/**
 * The structural checks bots and workflows share before a save: ids unique across the whole
 * document (groups, blocks, items, nodes, edges, events, variables alike), finite canvas
 * coordinates, and variables with an id and a name the naming rule accepts. Pure, so the
 * editors run them too.
 */
import { isPlainObject } from './graph.js'
import { variableNameProblem } from './variable_names.js'

/** Where a problem is (a dotted path into the document) and what it is. */
export type Report = (path: string, message: string) => void

export const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** A check that each id is a non-empty text not used anywhere else in the document. */
export function uniqueIdCheck(report: Report) {
  const idPaths = new Map<string, string>()
  return (path: string, id: unknown): id is string => {
    if (typeof id !== 'string' || id.trim() === '') {
      report(`${path}.id`, 'Id must be a non-empty text')
      return false
    }
    const previous = idPaths.get(id)
    if (previous !== undefined) {
      report(`${path}.id`, `Id "${id}" is already used at ${previous}`)
      return false
    }
    idPaths.set(id, path)
    return true
  }
}

export function checkCoordinates(report: Report, path: string, coordinates: unknown) {
  if (!isPlainObject(coordinates)) return report(path, 'Coordinates must be an object')
  for (const axis of ['x', 'y']) {
    if (!isFiniteNumber(coordinates[axis])) report(`${path}.${axis}`, 'Must be a finite number')
  }
}

/** A variable's own checks; false when it is not even an object (nothing more to check). */
export function checkVariable(
  report: Report,
  checkId: (path: string, id: unknown) => boolean,
  path: string,
  variable: unknown
): variable is Record<string, unknown> {
  if (!isPlainObject(variable)) {
    report(path, 'Variable must be an object')
    return false
  }
  checkId(path, variable.id)
  const problem = variableNameProblem(variable.name)
  if (problem) report(`${path}.name`, problem)
  return true
}
