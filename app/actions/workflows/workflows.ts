import AppError from '#exceptions/app_error'
import { type WorkflowJson } from '#shared/workflow/types'
import { validateWorkflow } from '#shared/workflow/validate'

/** Parses against the workflow format; a workflow that does not parse is never saved. */
export function assertValidWorkflow(
  workflow: unknown,
  title = 'Error while updating workflow'
): WorkflowJson {
  const checked = validateWorkflow(workflow)
  if (!checked.ok) {
    const first = checked.errors[0]
    throw new AppError(title, {
      status: 422,
      code: 'E_INVALID_WORKFLOW',
      description: first.path ? `${first.path}: ${first.message}` : first.message,
    })
  }
  return checked.workflow
}
