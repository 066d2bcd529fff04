import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { DateTime } from 'luxon'
import type { TurnEffects } from '#engine/bot/engine'
import { upgradeState, type SessionState } from '#engine/bot/state'
import {
  dialectName,
  hasPreparedStatements,
  isBetterSqlite,
  isPostgres,
  runPrepared,
  runPreparedWrites,
} from '#services/prepared_statements'
import { STAMP_SUBQUERY } from '#services/capability_stamp'
import { changedRows, usagePeriod } from '#services/monthly_usage'
import {
  groupWrite,
  oneStatement,
  sessionReader,
  type RowsWrite,
} from '#services/chat/group_commit'

/**
 * Persistence of chat turns, written for the hot path: plain queries, no models. A turn
 * reads its session once and writes it once, plus one update per touched result and one
 * insert for its answers (and one for its logs when there are some).
 */

export interface StoredSession {
  id: string
  state: SessionState
  expiresAt: Date | null
  /** The capability stamp, read with the session: the turn checks capabilities against it. */
  capabilityStamp: string | number | null
}

/**
 * Dates as Lucid writes them for the connection's dialect, so that models read the rows
 * written here (SQLite would otherwise store a JS Date as a number).
 */
let dateTimeFormat: string | undefined

function stamp(date: Date) {
  dateTimeFormat ??= db.connection().dialect.dateTimeFormat
  const format = dateTimeFormat
  // A turn writes a few dates: the dialects' two formats are built by hand (luxon's
  // tokenizer cost more than the rest of the row); any other format goes through luxon.
  if (format === DATE_TIME || format === DATE_TIME_OFFSET) return localStamp(date, format)
  return DateTime.fromJSDate(date).toFormat(format)
}

const DATE_TIME = 'yyyy-MM-dd HH:mm:ss'
const DATE_TIME_OFFSET = "yyyy-MM-dd'T'HH:mm:ss.SSSZZ"

function two(n: number) {
  return n < 10 ? `0${n}` : String(n)
}

/** The date in the process's time zone, as luxon formats it (same zone, same digits). */
export function localStamp(date: Date, format: typeof DATE_TIME | typeof DATE_TIME_OFFSET) {
  const year = String(date.getFullYear()).padStart(4, '0')
  const day = `${year}-${two(date.getMonth() + 1)}-${two(date.getDate())}`
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  if (format === DATE_TIME) return `${day} ${time}`
  const offset = -date.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  const ms = String(date.getMilliseconds()).padStart(3, '0')
  return `${day}T${time}.${ms}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
}

/** Web sessions end after a week without a turn unless the bot says otherwise. */
export const DEFAULT_SESSION_EXPIRY_MS = 7 * 24 * 3600 * 1000

function expiryOf(state: SessionState, now: Date) {
  const timeout =
    state.expiryTimeout && state.expiryTimeout >= 1
      ? state.expiryTimeout
      : DEFAULT_SESSION_EXPIRY_MS
  return new Date(now.getTime() + timeout)
}

const READ_SESSION = `select "state", "expires_at", ${STAMP_SUBQUERY} as "capability_stamp" from "chat_sessions" where "id" = ? limit 1`
const READ_SESSIONS = `select "id", "state", "expires_at", ${STAMP_SUBQUERY} as "capability_stamp" from "chat_sessions" where "id" = any(?::varchar[])`

/** PostgreSQL: the reads of the turns of one round of I/O go as one (group_commit.ts). */
let sessions: ReturnType<typeof sessionReader> | undefined

export async function readSession(id: string): Promise<StoredSession | null> {
  type Row = { state: string; expires_at: Date | null; capability_stamp: string | number | null }
  const row = isPostgres()
    ? await (sessions ??= sessionReader(READ_SESSION, READ_SESSIONS)).load(id)
    : hasPreparedStatements()
      ? (await runPrepared<Row>(READ_SESSION, [id]))[0]
      : ((await db
          .from('chat_sessions')
          .where('id', id)
          .select('state', 'expires_at', db.raw(`${STAMP_SUBQUERY} as capability_stamp`))
          .first()) as Row | null)
  if (!row) return null
  const expiresAt = row.expires_at ? new Date(row.expires_at) : null
  return {
    id,
    state: upgradeState(JSON.parse(row.state)),
    expiresAt,
    capabilityStamp: row.capability_stamp,
  }
}

function sessionRow(id: string, state: SessionState, botId: string, now: Date) {
  return {
    id,
    state: JSON.stringify(state),
    source: state.source,
    bot_id: botId,
    is_replying: false,
    expires_at: stamp(expiryOf(state, now)),
    created_at: stamp(now),
    updated_at: stamp(now),
  }
}

export async function updateSession(id: string, state: SessionState, now = new Date()) {
  await runWrites([sessionUpdate(id, state, now)])
}

function sessionUpdate(id: string, state: SessionState, now: Date) {
  return updateStatement('chat_sessions', id, {
    state: JSON.stringify(state),
    expires_at: stamp(expiryOf(state, now)),
    updated_at: stamp(now),
  })
}

/**
 * A write with `?` placeholders. A turn's inserts and updates are written here rather than
 * built by knex: its query compiler cost a tenth of a turn's allocations and CPU, for
 * statements this plain. Tables and columns are our own names, never input.
 */
interface Statement {
  sql: string
  bindings: unknown[]
  /** The same write as rows, for a statement shared with other turns (PostgreSQL). */
  rows?: RowsWrite
}

function quoted(name: string) {
  return dialectName() === 'mysql' ? `\`${name}\`` : `"${name}"`
}

function insertStatement(table: string, rows: Record<string, unknown>[]): Statement {
  const columns = Object.keys(rows[0])
  const row = `(${columns.map(() => '?').join(', ')})`
  return {
    sql: `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${rows.map(() => row).join(', ')}`,
    bindings: rows.flatMap((values) => columns.map((column) => values[column])),
    rows: {
      kind: 'insert',
      table,
      columns,
      rows: rows.map((values) => columns.map((column) => values[column])),
    },
  }
}

function updateStatement(table: string, id: string, patch: Record<string, unknown>): Statement {
  const columns = Object.keys(patch)
  return {
    sql: `update ${quoted(table)} set ${columns.map((column) => `${quoted(column)} = ?`).join(', ')} where ${quoted('id')} = ?`,
    bindings: [...columns.map((column) => patch[column]), id],
    rows: {
      kind: 'update',
      table,
      columns: ['id', ...columns],
      rows: [[id, ...columns.map((column) => patch[column])]],
    },
  }
}

/**
 * Takes a session's paused stream for one streamMessage call: the state is written with
 * `awaiting.streamClaimed` only if nobody wrote it since it was read (compare-and-set on the
 * stored text), so two concurrent calls cannot both run, and bill, the provider.
 */
export async function claimStream(id: string, now = new Date()): Promise<boolean> {
  const row = await db.from('chat_sessions').where('id', id).select('state').first()
  if (!row) return false
  const state = upgradeState(JSON.parse(row.state))
  if (!state.awaiting?.streams || state.awaiting.streamClaimed) return false
  state.awaiting.streamClaimed = true
  const updated = await db
    .knexQuery()
    .table('chat_sessions')
    .where({ id, state: row.state })
    .update({ state: JSON.stringify(state), updated_at: stamp(now) })
  return Number(updated) === 1
}

export interface NewResult {
  id: string
  botId: string
  sessionId: string
  variables: unknown[]
  isCompleted?: boolean
  deviceDetails?: Record<string, unknown> | null
  location?: Record<string, unknown> | null
  uniqueUserId?: string | null
  /** The chat's language (bots in several languages). */
  language?: string | null
}

function resultRow(result: NewResult, now: Date) {
  return {
    id: result.id,
    bot_id: result.botId,
    variables: JSON.stringify(result.variables),
    has_started: false,
    is_completed: Boolean(result.isCompleted),
    is_archived: false,
    last_chat_session_id: result.sessionId,
    device_details: result.deviceDetails ? JSON.stringify(result.deviceDetails) : null,
    location: result.location ? JSON.stringify(result.location) : null,
    unique_user_id: result.uniqueUserId ?? null,
    language: result.language ?? null,
    created_at: stamp(now),
    updated_at: stamp(now),
  }
}

export async function insertResult(result: NewResult, now = new Date()) {
  await runWrites([insertStatement('results', [resultRow(result, now)])])
}

/** Chats counted this month in a workspace. */
export async function chatsThisMonth(workspaceId: string, now = new Date()): Promise<number> {
  const row = await db
    .from('chat_usage')
    .where({ workspace_id: workspaceId, period: usagePeriod(now) })
    .select('chats')
    .first()
  return Number(row?.chats ?? 0)
}

/**
 * Chats counted per workspace and month: a chat counts at its first
 * answer. Every count lands on one row per workspace. Inside each turn's statement the
 * row stayed locked until that turn committed, so at 100 new chats/s the turns queued
 * behind each other on it, holding their pool connections, and one slow commit stalled
 * every turn of the server for 100 to 300 ms. Counts now go in a statement of their own,
 * at most one at a time per row and process; the chats counted meanwhile go in the next
 * one.
 *
 * The count is also where the monthly limit holds, exactly, across processes: a batch of
 * n chats is added only if the row stays within the limit (`... where chats <= limit - n`,
 * one atomic statement in every dialect), and near the limit one chat at a time, so the
 * row never passes it and each chat learns whether it got a place. The turn waits for
 * that answer before it writes anything: a refused chat leaves no trace
 * (docs/security.md, "Plan limits").
 */
interface PendingChats {
  workspaceId: string
  period: string
  chats: number
  /** The plan's monthly chats (UNLIMITED: -1), as the latest turn of the batch read it. */
  limit: number
  counted: ((granted: boolean) => void)[]
}
const chatsWaiting = new Map<string, PendingChats>()
const chatsWriting = new Set<string>()

/** A turn that would start a chat past the workspace's monthly limit; nothing was written. */
export class ChatLimitExceeded extends Error {
  constructor() {
    super('Chat limit of the month reached')
    this.name = 'ChatLimitExceeded'
  }
}

const UNLIMITED_CHATS = -1

function countChat(workspaceId: string, now: Date, limit: number): Promise<boolean> {
  const month = usagePeriod(now)
  const key = `${workspaceId} ${month}`
  return new Promise((resolve) => {
    let pending = chatsWaiting.get(key)
    if (!pending) {
      pending = { workspaceId, period: month, chats: 0, limit, counted: [] }
      chatsWaiting.set(key, pending)
    }
    pending.chats++
    pending.limit = limit
    pending.counted.push(resolve)
    if (!chatsWriting.has(key)) void writeChatCounts(key)
  })
}

async function writeChatCounts(key: string) {
  chatsWriting.add(key)
  try {
    for (let batch = chatsWaiting.get(key); batch; batch = chatsWaiting.get(key)) {
      chatsWaiting.delete(key)
      let granted = batch.chats
      try {
        if (batch.limit === UNLIMITED_CHATS) await runWrites([addChats(batch)])
        else granted = await reserveChats(batch)
      } catch (error) {
        // The visitor's chat goes on; a lost count is not worth failing the turn.
        logger.error(
          { err: error, workspaceId: batch.workspaceId, chats: batch.chats },
          'Chats not counted'
        )
      }
      batch.counted.forEach((counted, index) => counted(index < granted))
    }
  } finally {
    chatsWriting.delete(key)
  }
}

/** The dialect's upsert, from knex (one statement per batch of chats). */
function addChats({ workspaceId, period: month, chats }: PendingChats): Statement {
  const { sql, bindings } = db
    .knexQuery()
    .table('chat_usage')
    .insert({ workspace_id: workspaceId, period: month, chats })
    .onConflict(['workspace_id', 'period'])
    .merge({ chats: db.knexRawQuery('chat_usage.chats + ?', [chats]) as any })
    .toSQL()
  return { sql, bindings: [...bindings] }
}

/** How many of the batch's chats fit under the limit; the row now counts them. */
async function reserveChats({ workspaceId, period: month, chats, limit }: PendingChats) {
  const add = async (n: number) =>
    changedRows(
      await db
        .knexQuery()
        .table('chat_usage')
        .where({ workspace_id: workspaceId, period: month })
        .where('chats', '<=', limit - n)
        .increment('chats', n)
    ) > 0
  if (await add(chats)) return chats
  // No row for this month yet, or fewer places left than the batch wants.
  await db
    .knexQuery()
    .table('chat_usage')
    .insert({ workspace_id: workspaceId, period: month, chats: 0 })
    .onConflict(['workspace_id', 'period'])
    .ignore()
  if (await add(chats)) return chats
  let granted = 0
  while (granted < chats && (await add(1))) granted++
  return granted
}

/** Gives back places taken by a turn that is refused after all. */
async function releaseChats(workspaceId: string, now: Date, chats: number) {
  await db
    .knexQuery()
    .table('chat_usage')
    .where({ workspace_id: workspaceId, period: usagePeriod(now) })
    .decrement('chats', chats)
}

/** The writes of a turn's effects, not run yet. */
function effectWrites(
  effects: TurnEffects,
  context: { sessionId: string },
  now: Date
): Statement[] {
  const writes: Statement[] = []
  for (const [resultId, update] of effects.results) {
    const patch: Record<string, unknown> = {
      variables: JSON.stringify(update.variables),
      last_chat_session_id: context.sessionId,
      updated_at: stamp(now),
    }
    if (update.hasStarted) patch.has_started = true
    if (update.isCompleted) patch.is_completed = true
    if (update.language) patch.language = update.language
    writes.push(updateStatement('results', resultId, patch))
  }
  if (effects.answers.length > 0) {
    writes.push(
      insertStatement(
        'answers',
        effects.answers.map((answer) => ({
          result_id: answer.resultId,
          block_id: answer.blockId,
          group_id: answer.groupId,
          variable_id: answer.variableId ?? null,
          content: answer.content,
          attached_file_urls: answer.attachedFileUrls?.length
            ? JSON.stringify(answer.attachedFileUrls)
            : null,
          created_at: stamp(now),
        }))
      )
    )
  }
  if (effects.timeouts.length > 0) {
    writes.push(
      insertStatement(
        'input_timeouts',
        effects.timeouts.map((timeout) => ({
          result_id: timeout.resultId,
          block_id: timeout.blockId,
          group_id: timeout.groupId,
          created_at: stamp(now),
        }))
      )
    )
  }
  if (effects.logs.length > 0) {
    writes.push(
      insertStatement(
        'result_logs',
        effects.logs.map((log) => ({
          result_id: log.resultId,
          status: log.status,
          description: log.description.slice(0, 10_000),
          details: log.details === undefined ? null : JSON.stringify(log.details),
          created_at: stamp(now),
        }))
      )
    )
  }
  return writes
}

/**
 * Runs a turn's writes. On PostgreSQL they go as ONE statement (data-modifying CTEs):
 * one round trip and one commit per turn instead of one per table, which is what bounds
 * the chat throughput (commits are the expensive part). A turn's shape (which tables, how
 * many answers) repeats from turn to turn, so the statement is a prepared one. Elsewhere
 * they run in parallel.
 */
async function runWrites(writes: Statement[]) {
  if (writes.length === 0) return
  if (isPostgres() && writes.every((write) => write.rows)) {
    // Shared with the turns of the same round when there are some (group_commit.ts).
    return groupWrite({
      parts: writes.map((write) => write.rows!),
      alone: () => runWritesAlone(writes),
    })
  }
  return runWritesAlone(writes)
}

async function runWritesAlone(writes: Statement[]) {
  if (isPostgres()) {
    // The last write is the statement itself and the others its CTEs, none returning
    // anything: a trailing `SELECT 1` over `RETURNING` rows had PostgreSQL keep and send
    // rows that nobody reads.
    await runPrepared(
      oneStatement(writes.map((write) => write.sql)),
      writes.flatMap((write) => write.bindings)
    )
    return
  }
  // The embedded SQLite: one transaction, so one commit per turn instead of one per table.
  if (isBetterSqlite()) return runPreparedWrites(writes)
  await Promise.all(writes.map((write) => db.rawQuery(write.sql, write.bindings as any[])))
}

/**
 * Writes what a turn produced, with the session's new state: an update of the session
 * (or its insert on start, with the new result), the touched results, the answers and the
 * logs. A turn that starts a chat first takes its place under the monthly limit (in a
 * statement of its own: countChat), and writes nothing if refused. Results created by the
 * engine (linked bots keeping their own results) and a new result that gets answers at
 * once are inserted first, so that the answers' foreign keys find them.
 */
export async function persistTurn(input: {
  sessionId: string
  state: SessionState
  botId: string
  workspaceId: string
  effects: TurnEffects
  isNewSession?: boolean
  newResult?: NewResult
  /** Preview: the session only. */
  sessionOnly?: boolean
  /** The plan's chats per month; a turn that starts a chat past it throws ChatLimitExceeded. */
  chatLimit?: number
  now?: Date
}) {
  const now = input.now ?? new Date()
  const { effects } = input
  const limit = input.chatLimit ?? UNLIMITED_CHATS
  // Without a limit nothing can be refused: the count runs beside the writes, as before.
  const counting = input.sessionOnly
    ? undefined
    : takeChatPlaces(input.workspaceId, effects, now, limit)
  if (counting && limit !== UNLIMITED_CHATS) await counting
  const needsResultsFirst =
    effects.newResults.length > 0 ||
    effects.answers.length > 0 ||
    effects.logs.length > 0 ||
    effects.timeouts.length > 0
  if (input.newResult && needsResultsFirst) await insertResult(input.newResult, now)
  for (const created of effects.newResults) {
    await insertResult(
      { id: created.id, botId: created.botId, sessionId: input.sessionId, variables: [] },
      now
    )
  }
  const writes: Statement[] = []
  if (input.newResult && !needsResultsFirst) {
    writes.push(insertStatement('results', [resultRow(input.newResult, now)]))
  }
  writes.push(
    input.isNewSession
      ? insertStatement('chat_sessions', [
          sessionRow(input.sessionId, input.state, input.botId, now),
        ])
      : sessionUpdate(input.sessionId, input.state, now)
  )
  if (!input.sessionOnly) {
    writes.push(...effectWrites(effects, { sessionId: input.sessionId }, now))
  }
  await Promise.all([runWrites(writes), counting])
}

/** Whether the turn starts a chat (its first answer): only those turns count. */
export function startsChat(effects: TurnEffects) {
  for (const update of effects.results.values()) if (update.hasStarted) return true
  return false
}

/** Counts the chats this turn starts, or throws ChatLimitExceeded with none counted. */
async function takeChatPlaces(workspaceId: string, effects: TurnEffects, now: Date, limit: number) {
  let started = 0
  for (const update of effects.results.values()) if (update.hasStarted) started++
  if (started === 0) return
  const granted = await Promise.all(
    Array.from({ length: started }, () => countChat(workspaceId, now, limit))
  )
  const kept = granted.filter(Boolean).length
  if (kept === started) return
  if (kept > 0) await releaseChats(workspaceId, now, kept)
  throw new ChatLimitExceeded()
}
