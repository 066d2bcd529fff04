import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import { findBotForResults } from '#actions/results/results_access'
import { inputBlocksOf, resultsGraphOf } from '#actions/results/result_columns'
import { nextInputFinder } from '#actions/results/drop_offs'
import type { BlockDropOffDto, ResultsStatsDto } from '#shared/results/types'

/** Views, starts, completions and views without any answer (non-archived results). */
export async function resultsStatsOf(botId: string) {
  const row = await db
    .from('results')
    .where('bot_id', botId)
    .where('is_archived', false)
    .select(
      db.raw('count(*) as views'),
      db.raw('sum(case when has_started = ? then 1 else 0 end) as starts', [true]),
      db.raw('sum(case when is_completed = ? then 1 else 0 end) as completed', [true]),
      db.raw('sum(case when has_started = ? and is_completed = ? then 1 else 0 end) as idle', [
        false,
        false,
      ])
    )
    .first()
  const stats: ResultsStatsDto = {
    totalViews: Number(row?.views ?? 0),
    totalStarts: Number(row?.starts ?? 0),
    totalCompleted: Number(row?.completed ?? 0),
  }
  return { stats, idle: Number(row?.idle ?? 0) }
}

/**
 * Stats and drop-offs of a bot. Two aggregate queries over the answers: how many results
 * answered each block, and for unfinished results which block they answered last (with
 * the answer itself for blocks with items, to follow the chosen path). A visitor who
 * answered P last and never finished dropped at the first input after P.
 */
export class ResultsAnalytics {
  async handle(user: User, botId: string) {
    const { bot } = await findBotForResults(user, botId)
    const graph = await resultsGraphOf(bot)
    const inputs = await inputBlocksOf(graph)
    const inputIds = new Set(inputs.map(({ block }) => block.id))
    const { stats, idle } = await resultsStatsOf(bot.id)

    const answeredRows = await db
      .from('answers')
      .join('results', 'results.id', 'answers.result_id')
      .where('results.bot_id', bot.id)
      .where('results.is_archived', false)
      .groupBy('answers.block_id')
      .select('answers.block_id as block_id')
      .countDistinct('answers.result_id as total')

    const withItems = inputs.filter(({ block }) => block.items?.length).map(({ block }) => block.id)
    const choice = withItems.length
      ? {
          sql: `case when answers.block_id in (${withItems.map(() => '?').join(', ')}) then answers.content else null end`,
          bindings: withItems,
        }
      : { sql: 'null', bindings: [] as string[] }
    const lastRows = await db
      .from('answers')
      .join('results', 'results.id', 'answers.result_id')
      .where('results.bot_id', bot.id)
      .where('results.is_archived', false)
      .where('results.is_completed', false)
      .whereRaw(
        'answers.id = (select max(latest.id) from answers as latest where latest.result_id = answers.result_id)'
      )
      .select('answers.block_id as block_id', db.raw(`${choice.sql} as choice`, choice.bindings))
      .count('* as total')
      // By position: the CASE expression's bindings would not match a repeated copy (PostgreSQL).
      .if(withItems.length > 0, (query) => query.groupByRaw('1, 2'))
      .if(withItems.length === 0, (query) => query.groupBy('answers.block_id'))

    // Reply timeouts taken, per question: each counts a visitor who did not answer it.
    const timedOutRows = await db
      .from('input_timeouts')
      .join('results', 'results.id', 'input_timeouts.result_id')
      .where('results.bot_id', bot.id)
      .where('results.is_archived', false)
      .groupBy('input_timeouts.block_id')
      .select('input_timeouts.block_id as block_id')
      .countDistinct('input_timeouts.result_id as total')
    const timedOut = new Map(timedOutRows.map((row) => [row.block_id, Number(row.total)]))

    const finder = nextInputFinder(graph, (block) => inputIds.has(block.id))
    const dropped = new Map<string, number>()
    const add = (blockId: string | null, count: number) => {
      if (blockId && count > 0) dropped.set(blockId, (dropped.get(blockId) ?? 0) + count)
    }
    add(finder.fromStart(), idle)
    for (const row of lastRows) add(finder.after(row.block_id, row.choice), Number(row.total))

    const answered = new Map(answeredRows.map((row) => [row.block_id, Number(row.total)]))
    const dropOffs: BlockDropOffDto[] = inputs.map(({ block }) => {
      const a = answered.get(block.id) ?? 0
      const d = dropped.get(block.id) ?? 0
      return {
        blockId: block.id,
        answered: a,
        dropped: d,
        dropRate: a + d > 0 ? d / (a + d) : 0,
        timedOut: timedOut.get(block.id) ?? 0,
      }
    })
    return { stats, dropOffs, graph, inputBlockIds: [...inputIds] }
  }
}
