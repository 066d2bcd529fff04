import db from '@adonisjs/lucid/services/db'
import type Workflow from '#models/workflow'
import type User from '#models/user'
import { recordVersion } from './workflow_history.js'

export class SaveNamedWorkflowVersion {
  /** Keeps the draft as it is now under a name the builder chose. */
  async handle(user: User, workflow: Workflow, name: string) {
    return db.transaction((trx) =>
      recordVersion(workflow, { user, updatedBy: 'user' }, trx, { kind: 'named', name })
    )
  }
}
