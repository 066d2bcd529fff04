import Workflow from '#models/workflow'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { snapshotOf } from '#dtos/workflow_dto'
import { WORKFLOW_NAME_MAX_LENGTH } from '#shared/workflow/validate'
import { CreateWorkflow } from './create_workflow.js'

export class DuplicateWorkflow {
  async handle(user: User, workspace: Workspace, workflow: Workflow) {
    const suffix = ' (copy)'
    const base = Array.from(workflow.name)
      .slice(0, WORKFLOW_NAME_MAX_LENGTH - suffix.length)
      .join('')
    return new CreateWorkflow().handle(user, workspace, {
      name: `${base}${suffix}`,
      content: { ...snapshotOf(workflow), isModifiedByAi: !!workflow.isModifiedByAi },
    })
  }
}
