import type { N8nNode } from '#sdk/n8n'

/**
 * Reading an n8n workflow export (docs/migrating-from-n8n.md): the JSON of n8n's
 * "Download", of its copy to the clipboard (nodes and connections only), or of its
 * template site (the workflow under `workflow`). Anything else is refused before any
 * conversion.
 */

export interface N8nConnectionTarget {
  node: string
  type: string
  index: number
}

/** connections[source name][connection type][output index] = targets. */
export type N8nConnections = Record<string, Record<string, (N8nConnectionTarget[] | null)[]>>

export interface N8nExport {
  name?: string
  nodes: N8nNode[]
  connections: N8nConnections
  settings?: Record<string, unknown>
  pinData?: Record<string, unknown>
}

/** Bounds of one import: a large n8n workflow has a few hundred nodes. */
export const N8N_IMPORT_LIMITS = { maxNodes: 1000 }

/** Why an export is refused, shown as is (translated in resources/locales/<lang>/server.json). */
export const N8N_IMPORT_MESSAGES = {
  notJson: 'The text is not JSON',
  notWorkflow: 'This is not an n8n workflow: it has no list of nodes',
  tooLarge: 'An n8n import takes at most 1000 nodes',
  badNode: 'A node of the workflow has no name or type',
  sameName: 'Two nodes of the workflow have the same name',
  badParameters: 'The parameters of a node are not an object',
  badConnections: 'The connections of the workflow are not an object',
  empty: 'Paste or upload an n8n workflow',
  unconverted: 'The n8n workflow could not be converted',
} as const

export class N8nExportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'N8nExportError'
  }
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function unwrap(raw: unknown): unknown {
  if (typeof raw === 'string') {
    try {
      return unwrap(JSON.parse(raw))
    } catch {
      throw new N8nExportError(N8N_IMPORT_MESSAGES.notJson)
    }
  }
  if (isObject(raw) && !Array.isArray(raw.nodes)) {
    for (const key of ['workflow', 'data']) {
      if (isObject(raw[key]) && Array.isArray(raw[key].nodes)) return raw[key]
    }
  }
  return raw
}

/** The export's nodes and connections, checked for the shape the converter reads. */
export function readN8nExport(raw: unknown): N8nExport {
  const data = unwrap(raw)
  if (!isObject(data) || !Array.isArray(data.nodes)) {
    throw new N8nExportError(N8N_IMPORT_MESSAGES.notWorkflow)
  }
  if (data.nodes.length > N8N_IMPORT_LIMITS.maxNodes) {
    throw new N8nExportError(N8N_IMPORT_MESSAGES.tooLarge)
  }
  const names = new Set<string>()
  for (const node of data.nodes) {
    if (!isObject(node) || typeof node.name !== 'string' || typeof node.type !== 'string') {
      throw new N8nExportError(N8N_IMPORT_MESSAGES.badNode)
    }
    if (names.has(node.name)) throw new N8nExportError(N8N_IMPORT_MESSAGES.sameName)
    names.add(node.name)
    if (node.parameters !== undefined && !isObject(node.parameters)) {
      throw new N8nExportError(N8N_IMPORT_MESSAGES.badParameters)
    }
  }
  const connections = data.connections ?? {}
  if (!isObject(connections)) throw new N8nExportError(N8N_IMPORT_MESSAGES.badConnections)
  return {
    name: typeof data.name === 'string' ? data.name : undefined,
    nodes: data.nodes as N8nNode[],
    connections: connections as N8nConnections,
    settings: isObject(data.settings) ? data.settings : undefined,
    pinData: isObject(data.pinData) ? data.pinData : undefined,
  }
}
