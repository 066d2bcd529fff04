import AppError from '#exceptions/app_error'
import { assertValidWorkflow } from './workflows.js'
import {
  importWorkflow,
  WORKFLOW_PARSE_ERROR_MESSAGE,
  WorkflowParseError,
} from '#shared/workflow/validate'
import type { WorkflowJson } from '#shared/workflow/types'

/**
 * A file or body to import, as workflow JSON that passes the format, or a
 * refusal (title and description) naming the form field (`field`) it came from.
 */
export function parseWorkflowImport(raw: unknown, field: string): WorkflowJson {
  let content: WorkflowJson
  try {
    content = importWorkflow(raw)
  } catch (error) {
    if (error instanceof WorkflowParseError) {
      throw new AppError(error.message, { status: 422, code: error.code, field })
    }
    throw error
  }
  return assertValidWorkflow(content, WORKFLOW_PARSE_ERROR_MESSAGE)
}
