import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AppError from '#exceptions/app_error'

/**
 * Optimistic locking of a draft (docs/editor.md "Saving from two places"). The editor
 * sends the revision it loaded; the write goes through only while the stored revision is
 * still that one, checked and raised in one conditional UPDATE so two saves racing each
 * other cannot both pass. Without an expected revision (API clients, restores) the write
 * simply raises the counter: the last writer wins, as before.
 */
export async function claimRevision(
  table: 'bots' | 'workflows',
  model: { id: string; revision: number },
  expected: number | undefined,
  trx?: TransactionClientContract
) {
  const client = trx ?? db
  if (expected === undefined) {
    await client.from(table).where('id', model.id).increment('revision', 1)
    const row = await client.from(table).where('id', model.id).select('revision').first()
    model.revision = Number(row?.revision ?? model.revision + 1)
    return
  }
  const affected = await client
    .from(table)
    .where('id', model.id)
    .where('revision', expected)
    .update({ revision: expected + 1 })
  if (affectedRows(affected) === 0) throw editConflict()
  model.revision = expected + 1
}

export function editConflict() {
  return new AppError('Changed elsewhere', {
    status: 409,
    code: 'E_EDIT_CONFLICT',
    description:
      'This draft was saved from another tab or by the assistant since you opened it. Reload it, or keep your version.',
  })
}

/** The drivers answer an UPDATE with a count, an array holding one, or a result object. */
export function affectedRows(result: unknown): number {
  if (typeof result === 'number') return result
  if (Array.isArray(result)) return affectedRows(result[0])
  if (result && typeof result === 'object') {
    const record = result as Record<string, unknown>
    if (typeof record.affectedRows === 'number') return record.affectedRows
    if (typeof record.rowCount === 'number') return record.rowCount
    if (typeof record.changes === 'number') return record.changes
  }
  return 0
}
