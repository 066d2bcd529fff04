import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Concurrency slots of workflow runs (docs/queue.md, "Concurrency slots"). A claimed run
 * names one of its workflow's slots (0 to the cap - 1) in `slot`, and the database keeps two
 * running runs of a workflow from naming the same one: a unique index over the running runs
 * only, so a run that leaves `running` (finished, parked, back in the queue, taken back
 * from a dead process) frees its slot with the same write, whatever wrote it. The cap then
 * holds across processes without a lock taken for each claim: two claims of the same slot
 * meet in the index, one fails and picks another.
 * PostgreSQL and SQLite index the running rows (a partial index); MySQL/MariaDB have no
 * partial indexes and index a generated column that holds the slot while the run is running.
 */
export default class extends BaseSchema {
  protected tableName = 'workflow_runs'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.integer('slot').nullable()
    })
    const dialect = this.db.dialect.name
    this.defer(async (db) => {
      if (dialect === 'mysql') {
        await db.rawQuery(
          'alter table `workflow_runs` ' +
            "add column `running_slot` int generated always as (case when `status` = 'running' then `slot` end) stored, " +
            'add unique index `workflow_runs_running_slot_unique` (`workflow_id`, `running_slot`)'
        )
      } else {
        await db.rawQuery(
          'create unique index workflow_runs_running_slot_unique on workflow_runs (workflow_id, slot) ' +
            "where status = 'running'"
        )
      }
    })
  }

  async down() {
    const dialect = this.db.dialect.name
    this.defer(async (db) => {
      if (dialect === 'mysql') {
        await db.rawQuery(
          'alter table `workflow_runs` drop index `workflow_runs_running_slot_unique`, drop column `running_slot`'
        )
      } else {
        await db.rawQuery('drop index workflow_runs_running_slot_unique')
      }
    })
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('slot')
    })
  }
}
