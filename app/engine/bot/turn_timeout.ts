import type { Block } from '#shared/bot/types'
import { indexOf } from './flow_graph.js'
import type { Turn } from './turn.js'
import type { TimeoutStatus } from './turn_types.js'

/** Reply timeouts (engine.ts, timeoutChat): an input left without an answer in time. */

/** The reply timeout of an input block, in seconds, when it has a valid one. */
export function timeoutSecondsOf(block: Block): number | undefined {
  const seconds = block.timeout?.seconds
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1
    ? Math.round(seconds)
    : undefined
}

/**
 * The awaited input got no answer in time: the turn takes the block's "No reply" exit
 * (the end of the path when it leads nowhere) and records the timeout for the result.
 * 'early' before the deadline, 'stale' when the session no longer awaits that question
 * (answered meanwhile, or asked again with a new deadline).
 */
export async function takeTimeout(
  turn: Turn,
  expected?: { blockId: string; deadline?: number }
): Promise<TimeoutStatus> {
  const awaiting = turn.state.awaiting
  const timeout = awaiting?.kind === 'input' ? awaiting.timeout : undefined
  if (!awaiting || !timeout) return { status: 'stale' }
  if (expected && expected.blockId !== awaiting.blockId) return { status: 'stale' }
  if (expected?.deadline !== undefined && expected.deadline !== timeout.deadline)
    return { status: 'stale' }
  if (turn.now < timeout.deadline)
    return { status: 'early', remainingMs: timeout.deadline - turn.now }
  const group =
    indexOf(turn.bot.content).groups.get(awaiting.groupId) ??
    turn.bot.content.groups.find((g) => g.blocks.some((b) => b.id === awaiting.blockId))
  const block = group?.blocks.find((b) => b.id === awaiting.blockId)
  turn.state.awaiting = undefined
  if (!group || !block) {
    turn.log({ status: 'error', description: 'The awaited block no longer exists in this bot' })
    await turn.walk(null)
    return { status: 'taken' }
  }
  turn.log({
    status: 'info',
    description: `No reply within ${timeout.seconds} s: the "No reply" path was taken`,
    details: { blockId: block.id, groupId: group.id, seconds: timeout.seconds },
  })
  if (turn.current.resultId) {
    turn.effects.timeouts.push({
      resultId: turn.current.resultId,
      blockId: block.id,
      groupId: group.id,
    })
  }
  const edgeId = block.timeout?.outgoingEdgeId
  await turn.walk(edgeId ? { edgeId } : null)
  return { status: 'taken' }
}
