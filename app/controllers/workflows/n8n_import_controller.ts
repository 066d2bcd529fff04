import type { HttpContext } from '@adonisjs/core/http'
import AppError from '#exceptions/app_error'
import { findWorkspaceFor } from '#services/workspace_access'
import { ImportN8nWorkflow } from '#actions/workflows/import_n8n_workflow'
import { importN8nValidator } from '#validators/n8n_import'
import { toN8nImportDto } from '#dtos/n8n_import_dto'
import { N8N_IMPORT_MESSAGES } from '#services/n8n_import/n8n_export'

/** "Import from n8n" (docs/migrating-from-n8n.md): API tokens or the session. */
export default class N8nImportController {
  /**
   * POST /api/v1/workflows/import-n8n {workspaceId, workflow, save?, name?}: the import
   * report (200), and with save the new workflow's id (201).
   */
  async store({ auth, bouncer, request, response }: HttpContext) {
    const payload = await request.validateUsing(importN8nValidator)
    const { workspace } = await findWorkspaceFor(auth.user!, payload.workspaceId)
    if (await bouncer.with('WorkspacePolicy').denies('createContent', workspace)) {
      throw AppError.forbidden('Guests cannot create workflows.')
    }
    if (payload.workflow === undefined || payload.workflow === null || payload.workflow === '') {
      throw new AppError(N8N_IMPORT_MESSAGES.empty, { status: 422, field: 'workflow' })
    }
    const result = await new ImportN8nWorkflow().handle(auth.user!, workspace, {
      workflow: payload.workflow,
      save: payload.save === true,
      name: payload.name,
    })
    const body = toN8nImportDto(result)
    return result.workflowId ? response.created(body) : body
  }
}
