/**
 * Bots in the shape Typebot exports today (schema version "6.1"), written for these tests:
 * the top-level fields of an export, v6 groups/blocks/events/edges, and helpers to build
 * the few blocks the tests need.
 */
type Json = Record<string, any>

let counter = 0
/** A cuid-looking id, unique within the test process. */
export function exportId(prefix = 'c') {
  counter += 1
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}`.slice(0, 25)
}

export const richText = (text: string) => ({
  richText: [{ type: 'p', children: [{ text }] }],
})

export const textBubble = (id: string, text: string) => ({
  id,
  type: 'text',
  content: richText(text),
})

export const textInput = (id: string, variableId: string, outgoingEdgeId?: string) => ({
  id,
  type: 'text input',
  options: { labels: { placeholder: 'Type your answer...' }, variableId },
  ...(outgoingEdgeId ? { outgoingEdgeId } : {}),
})

export const equals = (id: string, variableId: string, value: string) => ({
  logicalOperator: 'AND',
  comparisons: [{ id, variableId, comparisonOperator: 'Equal to', value }],
})

export const group = (id: string, title: string, x: number, blocks: Json[]) => ({
  id,
  title,
  graphCoordinates: { x, y: 0 },
  blocks,
})

/** A whole export: what Typebot's "Export flow" writes, version "6.1". */
export function typebotExport(content: {
  id?: string
  name?: string
  publicId?: string | null
  version?: string
  groups: Json[]
  edges: Json[]
  variables?: Json[]
  startEdgeId: string
  settings?: Json
  theme?: Json
}): Json {
  const now = new Date().toISOString()
  return {
    version: content.version ?? '6.1',
    id: content.id ?? exportId(),
    name: content.name ?? 'Exported bot',
    events: [
      {
        id: 'ev_start',
        type: 'start',
        graphCoordinates: { x: -200, y: 0 },
        outgoingEdgeId: content.startEdgeId,
      },
    ],
    groups: content.groups,
    edges: content.edges,
    variables: content.variables ?? [],
    theme: content.theme ?? {},
    selectedThemeTemplateId: null,
    settings: content.settings ?? {},
    createdAt: now,
    updatedAt: now,
    icon: null,
    folderId: null,
    publicId: content.publicId ?? null,
    customDomain: null,
    workspaceId: 'typebot-workspace',
    resultsTablePreferences: null,
    isArchived: false,
    isClosed: false,
    whatsAppCredentialsId: null,
    riskLevel: null,
  }
}
