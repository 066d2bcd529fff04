/*
| npm run bench -- chat_sqlite_writes
| A chat turn's SQLite statements on their own, the two ways side by side in one process and
| interleaved (so both see the same moments of a shared machine): as knex ran them
| (each statement compiled again at each call, each write a commit of its own) and as the
| chat store runs them on better-sqlite3 (`runPrepared`: compiled once per connection, the
| turn's writes in one transaction). A turn is the session read, the session update, the
| result update and the answer insert, with the bench bot's row sizes. CPU is this
| process's (better-sqlite3 runs on the calling thread, as in the web process).
*/
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import type { BenchReport } from './run.ts'

const ROUNDS = 20
const TURNS_PER_ROUND = 500
const SESSIONS = 2000

interface Statement {
  reader: boolean
  all(...values: unknown[]): unknown[]
  run(...values: unknown[]): unknown
}
interface Database {
  prepare(sql: string): Statement
  pragma(text: string, options?: { simple: boolean }): unknown
  exec(sql: string): void
  transaction(run: () => void): () => void
  close(): void
}

const READ = `select "state", "expires_at", (select version from capability_stamps where id = 'capabilities') as "capability_stamp" from "chat_sessions" where "id" = ? limit 1`
const STAMP = '2026-11-29 10:00:00'

function open(file: string): Database {
  const BetterSqlite = createRequire(import.meta.url)('better-sqlite3')
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  const db: Database = new BetterSqlite(file)
  // As config/database.ts sets each connection.
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.exec(`create table results (id varchar(32) primary key, variables text not null, has_started boolean, last_chat_session_id varchar(32), updated_at datetime);
create table answers (id integer primary key autoincrement, result_id varchar(32) not null references results(id) on delete cascade, block_id varchar(64) not null, group_id varchar(64) not null, variable_id varchar(64), content text not null, attached_file_urls text, created_at datetime not null);
create index answers_result_id_index on answers(result_id);
create table chat_sessions (id varchar(32) primary key, state text not null, source varchar(16), bot_id varchar(32), is_replying boolean, expires_at datetime, created_at datetime, updated_at datetime);
create table capability_stamps (id varchar(255) primary key, version integer);
insert into capability_stamps values ('capabilities', 1);`)
  return db
}

export async function run(): Promise<BenchReport> {
  const file = join(tmpdir(), `bench-chat-sqlite-writes-${process.pid}.sqlite3`)
  const db = open(file)
  // A session state of the bench bot's size at its 5th turn (about 1 KB of JSON).
  const state = JSON.stringify({ version: '3', padding: 'x'.repeat(900) })
  for (let i = 0; i < SESSIONS; i++) {
    db.prepare('insert into results values (?, ?, 0, ?, ?)').run(`r${i}`, '[]', `s${i}`, STAMP)
    db.prepare('insert into chat_sessions values (?, ?, ?, ?, 0, ?, ?, ?)').run(
      ...[`s${i}`, state, 'web', 'b', STAMP, STAMP, STAMP]
    )
  }
  const writes = (i: number) => [
    {
      sql: 'update "chat_sessions" set "state" = ?, "expires_at" = ?, "updated_at" = ? where "id" = ?',
      values: [state, STAMP, STAMP, `s${i}`],
    },
    {
      sql: 'update "results" set "variables" = ?, "last_chat_session_id" = ?, "updated_at" = ? where "id" = ?',
      values: ['[{"id":"va1","name":"Answer 1","value":"42"}]', `s${i}`, STAMP, `r${i}`],
    },
    {
      sql: 'insert into "answers" ("result_id", "block_id", "group_id", "variable_id", "content", "attached_file_urls", "created_at") values (?, ?, ?, ?, ?, ?, ?)',
      values: [`r${i}`, 'n1', 'g1', 'va1', '42', null, STAMP],
    },
  ]
  const compiled = new Map<string, Statement>()
  const once = (sql: string) => {
    let statement = compiled.get(sql)
    if (!statement) compiled.set(sql, (statement = db.prepare(sql)))
    return statement
  }
  const ways = {
    knex: (i: number) => {
      db.prepare(READ).all(`s${i}`)
      for (const write of writes(i)) db.prepare(write.sql).run(...write.values)
    },
    prepared: (i: number) => {
      once(READ).all(`s${i}`)
      db.transaction(() => {
        for (const write of writes(i)) once(write.sql).run(...write.values)
      })()
    },
  }
  const totals = { knex: { cpu: 0, wall: 0, turns: 0 }, prepared: { cpu: 0, wall: 0, turns: 0 } }
  const loadBefore = loadavg()[0]
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = (
        round % 2 ? ['prepared', 'knex'] : ['knex', 'prepared']
      ) as (keyof typeof ways)[]
      for (const way of order) {
        const cpu = process.cpuUsage()
        const start = performance.now()
        for (let i = 0; i < TURNS_PER_ROUND; i++)
          ways[way]((round * TURNS_PER_ROUND + i) % SESSIONS)
        const used = process.cpuUsage(cpu)
        // The first two rounds warm the JIT and SQLite's page cache up.
        if (round < 2) continue
        totals[way].cpu += (used.user + used.system) / 1000
        totals[way].wall += performance.now() - start
        totals[way].turns += TURNS_PER_ROUND
      }
    }
  } finally {
    db.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  }
  const perTurn = (way: keyof typeof totals, what: 'cpu' | 'wall') =>
    Number((totals[way][what] / totals[way].turns).toFixed(4))
  return {
    name: "chat turn's SQLite statements, knex's way and the prepared way side by side",
    results: [
      { metric: 'knex: CPU per turn', value: perTurn('knex', 'cpu'), unit: 'ms' },
      {
        metric: 'prepared, one transaction: CPU per turn',
        value: perTurn('prepared', 'cpu'),
        unit: 'ms',
      },
      {
        metric: 'prepared / knex, CPU per turn',
        value: Number((perTurn('prepared', 'cpu') / perTurn('knex', 'cpu')).toFixed(3)),
        unit: 'ratio',
      },
      { metric: 'knex: wall time per turn', value: perTurn('knex', 'wall'), unit: 'ms' },
      {
        metric: 'prepared, one transaction: wall time per turn',
        value: perTurn('prepared', 'wall'),
        unit: 'ms',
      },
    ],
    notes: [
      `${ROUNDS - 2} rounds of ${TURNS_PER_ROUND} turns per way, interleaved, after 2 rounds of warm-up; load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}.`,
    ],
  }
}
