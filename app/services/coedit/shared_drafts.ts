import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import * as Y from 'yjs'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { affectedRows } from '#services/draft_revision'
import { jsonEqual } from '#shared/json_equal'
import {
  decodeBase64,
  encodeBase64,
  mergeDrafts,
  readDraft,
  writeDraft,
} from '#shared/coedit/mirror'
import type { CoeditKind } from '#shared/coedit/protocol'

/**
 * The merged Yjs state of shared drafts, kept in the database (docs/editor.md "Editing
 * together"): a document row per draft and its updates appended as they arrive. Every web
 * process reads and appends there, so any of them can serve any editor; nothing is held in
 * a process between requests.
 */

/** What co-editing needs of a bot or a workflow: its draft now, and how to write one. */
export interface DraftTarget {
  kind: CoeditKind
  id: string
  revision: number
  draft: () => Record<string, unknown>
}

/** Past this many updates, a document's updates are folded into one. */
const COMPACT_AFTER = 100

interface DocumentRow {
  id: number
  revision: number
  written_update_id: number | string
  draft: string
}

function documentRow(kind: CoeditKind, id: string) {
  return db
    .from('coedit_documents')
    .where('document_type', kind)
    .where('document_id', id)
    .first() as Promise<DocumentRow | null>
}

function stateOf(draft: Record<string, unknown>) {
  const doc = new Y.Doc()
  writeDraft(doc, draft)
  return Y.encodeStateAsUpdate(doc)
}

/**
 * The document row, created with the draft as its first update when there is none yet. The
 * seed must be written once: two seeds of one draft would be two copies of every block once
 * merged. The row's unique key makes a second process's insert fail, and it reads the first.
 */
async function ensureDocument(target: DraftTarget): Promise<DocumentRow> {
  const existing = await documentRow(target.kind, target.id)
  if (existing) return existing
  try {
    await db.transaction(async (trx) => {
      await trx.table('coedit_documents').insert({
        document_type: target.kind,
        document_id: target.id,
        revision: target.revision,
        written_update_id: 0,
        draft: JSON.stringify(target.draft()),
        created_at: new Date(),
      })
      await trx.table('coedit_updates').insert({
        document_type: target.kind,
        document_id: target.id,
        payload: encodeBase64(stateOf(target.draft())),
      })
    })
  } catch (error) {
    const raced = await documentRow(target.kind, target.id)
    if (!raced) throw error
    return raced
  }
  return (await documentRow(target.kind, target.id))!
}

interface LoadedDocument {
  doc: Y.Doc
  row: DocumentRow
  /** The newest update folded into `doc`. */
  lastUpdateId: number
  updateCount: number
}

async function loadDocument(target: DraftTarget): Promise<LoadedDocument> {
  const row = await ensureDocument(target)
  const updates = (await db
    .from('coedit_updates')
    .where('document_type', target.kind)
    .where('document_id', target.id)
    .orderBy('id', 'asc')
    .select('id', 'payload')) as { id: number | string; payload: string }[]
  const doc = new Y.Doc()
  if (updates.length > 0) {
    Y.applyUpdate(doc, Y.mergeUpdates(updates.map((update) => decodeBase64(update.payload))))
  }
  const lastUpdateId = updates.length > 0 ? Number(updates[updates.length - 1].id) : 0
  return { doc, row, lastUpdateId, updateCount: updates.length }
}

export async function appendUpdate(
  kind: CoeditKind,
  id: string,
  update: Uint8Array,
  client: TransactionClientContract | typeof db = db
) {
  await client.table('coedit_updates').insert({
    document_type: kind,
    document_id: id,
    payload: encodeBase64(update),
  })
}

/**
 * The merged state for an editor that joins (or comes back), as one Yjs update. A draft
 * written elsewhere since the state last matched it (a restore, a publish's restore, an API
 * client) is folded in first, as a change like anyone's: `onFolded` gets it to broadcast.
 */
export async function joinDocument(
  target: DraftTarget,
  onFolded: (update: Uint8Array) => void
): Promise<Uint8Array> {
  let loaded = await loadDocument(target)
  const folded = await foldWrittenElsewhere(target, loaded)
  if (folded === LOST) loaded = await loadDocument(target)
  else if (folded) onFolded(folded)
  return Y.encodeStateAsUpdate(loaded.doc)
}

/**
 * The draft was written outside co-editing (its revision moved on): what that write changed
 * (from the draft as of the last known revision to the one stored now) is merged into the
 * shared document, so the editors' updates not written yet stay, and becomes one update.
 * The revision is claimed first, so of two processes finding it only one folds it in (two
 * folds of one text change would type it twice).
 */
async function foldWrittenElsewhere(
  target: DraftTarget,
  loaded: LoadedDocument
): Promise<Uint8Array | null | typeof LOST> {
  if (Number(loaded.row.revision) === target.revision) return null
  const stored = JSON.parse(JSON.stringify(target.draft()))
  const merged = mergeDrafts(JSON.parse(loaded.row.draft), stored, readDraft(loaded.doc))
  let update: Uint8Array | null = null
  loaded.doc.once('update', (bytes: Uint8Array) => {
    update = bytes
  })
  writeDraft(loaded.doc, merged as Record<string, unknown>)
  // The claim and the fold's update commit together: a process that loses the claim waits
  // for it (the row is locked) and then reads the update, so no joiner gets the state
  // from before the fold.
  const claimed = await db.transaction(async (trx) => {
    const changed = await trx
      .from('coedit_documents')
      .where('id', loaded.row.id)
      .where('revision', loaded.row.revision)
      .update({ revision: target.revision, draft: JSON.stringify(stored) })
    if (affectedRows(changed) === 0) return false
    if (update) await appendUpdate(target.kind, target.id, update, trx)
    return true
  })
  // Another process folded it in: this one's document is stale, the caller reads it again.
  if (!claimed) return LOST
  return update
}

/** What foldWrittenElsewhere answers when another process folded the same write first. */
const LOST = Symbol('lost')

/**
 * Writes the merged document into the draft when updates arrived since the last write
 * (`write` saves it through the same action as the editor's save and answers the new
 * revision), then folds the updates into one when there are many.
 */
export async function writeMergedDraft(
  target: DraftTarget,
  write: (draft: Record<string, unknown>) => Promise<number>,
  onFolded: (update: Uint8Array) => void
) {
  let loaded = await loadDocument(target)
  const folded = await foldWrittenElsewhere(target, loaded)
  if (folded === LOST) loaded = await loadDocument(target)
  else if (folded) onFolded(folded)
  if (Number(loaded.row.written_update_id) < loaded.lastUpdateId) {
    const claimed = await db
      .from('coedit_documents')
      .where('id', loaded.row.id)
      .where('written_update_id', '<', loaded.lastUpdateId)
      .update({ written_update_id: loaded.lastUpdateId })
    if (affectedRows(claimed) > 0) {
      const draft = readDraft(loaded.doc)
      if (!jsonEqual(draft, JSON.parse(JSON.stringify(target.draft())))) {
        const revision = await write(draft)
        await db
          .from('coedit_documents')
          .where('id', loaded.row.id)
          .update({ revision, draft: JSON.stringify(draft) })
      }
    }
  }
  if (loaded.updateCount > COMPACT_AFTER) await compact(target, loaded)
}

/** Replaces the updates folded into `loaded.doc` by their merge (later ones stay). */
async function compact(target: DraftTarget, loaded: LoadedDocument) {
  try {
    await db.transaction(async (trx) => {
      await trx
        .from('coedit_updates')
        .where('document_type', target.kind)
        .where('document_id', target.id)
        .where('id', '<=', loaded.lastUpdateId)
        .delete()
      await trx.table('coedit_updates').insert({
        document_type: target.kind,
        document_id: target.id,
        payload: encodeBase64(Y.encodeStateAsUpdate(loaded.doc)),
      })
    })
  } catch (error) {
    logger.warn({ err: error, document: target.id }, 'co-editing: compaction failed')
  }
}

/**
 * The merged draft as the editors have it now, or null when the draft has never been shared
 * (no editor joined it: the stored draft is all there is). A write made elsewhere is folded
 * in first, as a join does.
 */
export async function sharedDraftOf(
  target: DraftTarget,
  onFolded: (update: Uint8Array) => void
): Promise<Record<string, unknown> | null> {
  if (!(await documentRow(target.kind, target.id))) return null
  let loaded = await loadDocument(target)
  const folded = await foldWrittenElsewhere(target, loaded)
  if (folded === LOST) loaded = await loadDocument(target)
  else if (folded) onFolded(folded)
  return readDraft(loaded.doc)
}

/**
 * A participant that is not an editor (the copilot) changed the draft from `base` to `next`
 * and that change was just saved (target's revision is the save's): what it changed is
 * merged into the shared document as one update of its own, so edits made meanwhile stay.
 * The document's revision moves to the save's in the same transaction: the save is then not
 * folded in a second time as a write made elsewhere. When another process did fold it that
 * way first, merging again finds nothing left to change (every part is already `next`'s),
 * so the change is never in the document twice; the answer is then null.
 */
export async function foldChange(
  target: DraftTarget,
  base: Record<string, unknown>,
  next: Record<string, unknown>
): Promise<Uint8Array | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const loaded = await loadDocument(target)
    let update: Uint8Array | null = null
    const capture = (bytes: Uint8Array) => {
      update = bytes
    }
    loaded.doc.on('update', capture)
    writeDraft(
      loaded.doc,
      mergeDrafts(base, next, readDraft(loaded.doc)) as Record<string, unknown>
    )
    loaded.doc.off('update', capture)
    const stored = JSON.stringify(target.draft())
    const done = await db.transaction(async (trx) => {
      // Written again since the save (folded or by an editor's write): only the update goes.
      if (Number(loaded.row.revision) >= target.revision) {
        if (update) await appendUpdate(target.kind, target.id, update, trx)
        return true
      }
      const claimed = await trx
        .from('coedit_documents')
        .where('id', loaded.row.id)
        .where('revision', loaded.row.revision)
        .update({ revision: target.revision, draft: stored })
      // Someone folded a write in between: merge again on what they made.
      if (affectedRows(claimed) === 0) return false
      if (update) await appendUpdate(target.kind, target.id, update, trx)
      return true
    })
    if (done) return update
  }
  return null
}
