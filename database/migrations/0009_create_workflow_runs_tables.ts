import { BaseSchema } from '@adonisjs/lucid/schema'
import type { Knex } from 'knex'

/**
 * Workflow runs (issue 6 "Running"): one record per execution with its state (to resume a
 * parked run), and one record per node visit with its input, output and logs.
 */
export default class extends BaseSchema {
  async up() {
    // Deferred so that the check sees the tables of earlier migrations of the same batch.
    this.defer(async (db) => {
      const hasWorkflows = await db.schema.hasTable('workflows')
      await db.schema.createTable('workflow_runs', (table: Knex.CreateTableBuilder) => {
        table.string('id', 32).primary()
        const workflowId = table.string('workflow_id', 32).notNullable()
        if (hasWorkflows) workflowId.references('id').inTable('workflows').onDelete('CASCADE')
        table.string('status', 16).notNullable().defaultTo('queued')
        table.string('trigger', 16).notNullable()
        table.text('input').nullable()
        table.text('output').nullable()
        table.text('state').nullable()
        table.text('error').nullable()
        table.timestamp('resume_at').nullable()
        table.string('waiting_for_webhook_node', 64).nullable()
        table.timestamp('started_at').nullable()
        table.timestamp('finished_at').nullable()
        table.integer('duration_ms').nullable()
        table.timestamp('created_at').notNullable()
        table.timestamp('updated_at').notNullable()
        // The run list of a workflow, newest first; the concurrency count; retention pruning.
        table.index(['workflow_id', 'created_at'])
        table.index(['workflow_id', 'status'])
        // Due timers and stale runs are found by status.
        table.index(['status', 'resume_at'])
        table.index(['resume_at'])
      })

      await db.schema.createTable('workflow_run_nodes', (table: Knex.CreateTableBuilder) => {
        table.increments('id')
        table
          .string('run_id', 32)
          .notNullable()
          .references('id')
          .inTable('workflow_runs')
          .onDelete('CASCADE')
        table.string('node_id', 64).notNullable()
        table.string('node_type', 64).notNullable()
        table.string('status', 16).notNullable().defaultTo('pending')
        table.text('input').nullable()
        table.text('output').nullable()
        table.text('logs').nullable()
        table.integer('attempts').notNullable().defaultTo(0)
        table.timestamp('started_at').nullable()
        table.timestamp('finished_at').nullable()
        table.integer('duration_ms').nullable()
        table.index(['run_id', 'node_id'])
      })
    })
  }

  async down() {
    this.schema.dropTableIfExists('workflow_run_nodes')
    this.schema.dropTableIfExists('workflow_runs')
  }
}
