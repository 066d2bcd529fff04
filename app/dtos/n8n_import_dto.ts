import type { N8nImportResponse } from '#shared/workflow/n8n_import'

/**
 * What the browser and API clients get of an n8n import: the report lines (names, types,
 * what was lost, credential types by name only) and the new workflow's id once saved.
 */
export function toN8nImportDto(result: N8nImportResponse): N8nImportResponse {
  const { report } = result
  return {
    report: {
      name: report.name,
      nodes: report.nodes.map((line) => ({
        name: line.name,
        n8nType: line.n8nType,
        type: line.type,
        status: line.status,
        lost: [...line.lost],
        credentials: [...line.credentials],
        disabled: line.disabled,
      })),
      workflow: [...report.workflow],
      counts: { ...report.counts },
    },
    ...(result.workflowId ? { workflowId: result.workflowId } : {}),
  }
}
