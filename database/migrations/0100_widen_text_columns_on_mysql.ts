import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * On MySQL and MariaDB a `text` column holds 64 KB; SQLite's and PostgreSQL's hold what they
 * are given. Bot and workflow content, chat session state, run inputs and outputs and the like
 * pass 64 KB in real use (a 1 MB webhook body is a valid run input), and MySQL refused them
 * with a server error. Every `text` column of the app's tables becomes LONGTEXT there, keeping
 * whether it may be null. New migrations write `table.text(name, 'longtext')` for such columns
 * (docs/architecture.md, "Databases").
 */
export default class extends BaseSchema {
  async up() {
    const dialect = this.db.dialect.name
    if (dialect !== 'mysql') return
    const [columns] = (await this.db.rawQuery(
      `select table_name as t, column_name as c, is_nullable as n
         from information_schema.columns
        where table_schema = database() and data_type = 'text'
          and table_name not in ('adonis_schema', 'adonis_schema_versions')`
    )) as [Array<{ t: string; c: string; n: string }>]
    const byTable = new Map<string, string[]>()
    for (const { t, c, n } of columns) {
      const change = `modify \`${c}\` longtext ${n === 'YES' ? 'null' : 'not null'}`
      byTable.set(t, [...(byTable.get(t) ?? []), change])
    }
    for (const [table, changes] of byTable) {
      this.defer(async (db) => {
        await db.rawQuery(`alter table \`${table}\` ${changes.join(', ')}`)
      })
    }
  }

  async down() {
    // Narrowing back could cut stored values: the columns stay wide.
  }
}
