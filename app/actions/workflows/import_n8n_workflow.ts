import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { readN8nExport, N8nExportError, N8N_IMPORT_MESSAGES } from '#services/n8n_import/n8n_export'
import { convertN8nWorkflow } from '#services/n8n_import/convert_n8n_workflow'
import { assertValidWorkflow } from './workflows.js'
import { CreateWorkflow } from './create_workflow.js'
import type { N8nImportResponse } from '#shared/workflow/n8n_import'

/**
 * "Import from n8n" (docs/migrating-from-n8n.md): the report of what carries over, and,
 * when asked to save, the new workflow (a draft, like every import). The same export gives
 * the same report both times, so what the builder saw before saving is what is saved.
 */
export class ImportN8nWorkflow {
  async handle(
    user: User,
    workspace: Workspace,
    input: { workflow: unknown; save: boolean; name?: string | null }
  ): Promise<N8nImportResponse> {
    let source
    try {
      source = readN8nExport(input.workflow)
    } catch (error) {
      if (error instanceof N8nExportError) {
        throw new AppError(error.message, { status: 422, code: 'E_N8N_IMPORT', field: 'workflow' })
      }
      throw error
    }
    const { workflow, report } = await convertN8nWorkflow(await pluginRegistry(), source)
    const content = assertValidWorkflow(workflow, N8N_IMPORT_MESSAGES.unconverted)
    if (!input.save) return { report }
    const created = await new CreateWorkflow().handle(user, workspace, {
      content,
      name: input.name,
    })
    return { report, workflowId: created.id }
  }
}
