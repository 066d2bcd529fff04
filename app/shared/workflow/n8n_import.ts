/**
 * The report of an n8n workflow import (docs/migrating-from-n8n.md), as the browser gets
 * it: shown before saving, and again with the saved workflow's id.
 */

/**
 * mapped: taken over as it was; partial: taken over, some of it listed in `lost`;
 * placeholder: no equivalent, kept disabled as an Imported node with its parameters.
 */
export type N8nNodeImportStatus = 'mapped' | 'partial' | 'placeholder'

export interface N8nNodeImportLine {
  /** The n8n node's name, which is the new node's title. */
  name: string
  n8nType: string
  /** The plugin id of the new node. */
  type: string
  status: N8nNodeImportStatus
  /** What did not carry over (parameters, expressions, behaviours). */
  lost: string[]
  /** n8n credential types the node used: never imported, pick or create them again. */
  credentials: string[]
  disabled: boolean
}

export interface N8nImportReportDto {
  name: string
  nodes: N8nNodeImportLine[]
  /** Things of the workflow as a whole: connections not kept, sticky notes, triggers... */
  workflow: string[]
  counts: Record<N8nNodeImportStatus, number> & { credentials: number }
}

/** POST /api/v1/workflows/import-n8n: the report, and the new workflow once saved. */
export interface N8nImportResponse {
  report: N8nImportReportDto
  workflowId?: string
}
