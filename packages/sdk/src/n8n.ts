import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/n8n` (`#sdk/n8n` in the app): what a plugin needs to take over nodes of an
 * n8n workflow export. A plugin lists the n8n node types it stands for in its manifest
 * (`importsFrom.n8n`) and exports `fromN8n` from its runner.ts; the app's importer calls it
 * with the node and tools that translate n8n expressions into ours. The condition and pair
 * helpers below are the app's, reached through the port.
 */

/** A node as n8n exports it (only what the importer reads). */
export interface N8nNode {
  id?: string
  name: string
  type: string
  typeVersion?: number
  position?: [number, number]
  parameters?: Record<string, any>
  credentials?: Record<string, unknown>
  notes?: string
  disabled?: boolean
}

/** What `fromN8n` returns: the options of the new node and, for branching nodes, its branches. */
export interface N8nConversion {
  options: Record<string, unknown>
  /** Branches of a condition node, in order; the importer gives them ids. */
  conditions?: { content: unknown }[]
  /**
   * Where each n8n output (by index) leaves: a branch index of `conditions`, or null for the
   * node's default edges. Without it every output leaves by the default edges.
   */
  outputs?: (number | null)[]
  /**
   * Where n8n's `$json` of this node is in our output: 'body' for an HTTP request (n8n
   * outputs the answer's body, we output {statusCode, headers, body}); '' by default.
   */
  dataPath?: string
  /** The node outputs its input unchanged (a branch, a wait): its data path is its input's. */
  passesInput?: boolean
}

export interface N8nImportTools {
  /** An n8n parameter value (literal or `=` expression) as our option text. */
  text(value: unknown): string
  /** An n8n parameter value as a JavaScript expression for a Script node (see `js`). */
  jsValue(value: unknown): string
  /** n8n JavaScript (a Code node, an expression) with its n8n names turned into ours. */
  js(code: string): string
  /**
   * For nodes joining several inputs (Merge): by input index, a JavaScript expression per
   * node connected to it that reads that node's n8n data in a Script node
   * (`$node["Title"].body`).
   */
  inputs: string[][]
  /** Something of the node that did not carry over, shown in the import report. */
  lost(what: string): void
}

export type N8nConverter = (node: N8nNode, tools: N8nImportTools) => N8nConversion

/**
 * Where n8n's `$json` of a node is in our output (N8nConversion.dataPath): `node` is the
 * n8n node's name, undefined for the input of the node being translated.
 */
export type DataPathOf = (node: string | undefined) => string

/** One comparison of our condition content. */
export interface Comparison {
  variableId: string
  comparisonOperator: string
  value?: string
}

/** Our condition content: comparisons joined by AND or OR. */
export interface ConditionContent {
  comparisons: Comparison[]
  logicalOperator: 'AND' | 'OR'
}

/** The app's side of this module (see port.ts). */
export interface N8nPort {
  comparisonOf: typeof comparisonOf
  filterOf: typeof filterOf
  legacyConditionsOf: typeof legacyConditionsOf
  pairsOf: typeof pairsOf
}

/**
 * One n8n comparison (left value, operation, right value) as ours; what cannot be said (an
 * unknown operation, a left side that is not a data read) is reported through `tools.lost`.
 */
export function comparisonOf(
  left: unknown,
  operation: string,
  right: unknown,
  tools: Pick<N8nImportTools, 'text' | 'lost'>
): Comparison | undefined {
  return appPort('n8n').comparisonOf(left, operation, right, tools)
}

/** A filter of IF v2 / Switch v3 (`{conditions: [...], combinator}`) as our condition content. */
export function filterOf(filter: any, tools: N8nImportTools): ConditionContent {
  return appPort('n8n').filterOf(filter, tools)
}

/** Conditions of IF v1 (`{string: [...], number: [...], boolean: [...]}`) as our content. */
export function legacyConditionsOf(
  conditions: any,
  combine: unknown,
  tools: N8nImportTools
): ConditionContent {
  return appPort('n8n').legacyConditionsOf(conditions, combine, tools)
}

/** Name/value pairs of n8n's fixedCollection lists (`{parameters: [{name, value}]}`). */
export function pairsOf(
  collection: any,
  text: (value: unknown) => string,
  key = 'parameters'
): { key: string; value: string }[] {
  return appPort('n8n').pairsOf(collection, text, key)
}
