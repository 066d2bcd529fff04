import type Workflow from '#models/workflow'
import { versionsQuery } from './workflow_history.js'

export class ListWorkflowVersions {
  handle(workflow: Workflow) {
    return versionsQuery(workflow.id).preload('user')
  }
}
