import type { StoreApi } from 'zustand'
import type { DraftMeta, CoeditKind, PresenceState } from '#shared/coedit/protocol'
import type { BlockIssue } from '#shared/block_issues'
import type { DraftSyncState } from './draft_sync'
import type { CoeditState } from './coedit_presence'

/**
 * The contract between an editor and its co-editing session (coedit_session.ts). What the
 * session needs of an editor store: its draft in an undo history, read-only flag.
 */
export interface CoeditEditorState<D> extends DraftSyncState<D> {
  save: () => Promise<boolean>
  saveOnLeave: () => boolean
  undo: () => void
  redo: () => void
}

export interface CoeditOptions<S extends CoeditEditorState<D>, D> {
  kind: CoeditKind
  id: string
  /** The signed-in person (their own channel tells when their access ends). */
  userId: string
  store: StoreApi<S>
  /** The part of the document that is shared (what the draft's save would send). */
  bodyOf: (doc: D) => Record<string, unknown>
  /** The document the server holds, as last heard (`present === saved` shows "Saved"). */
  saved: (state: S) => D
  /** The store's fields for "this document is what the server holds". */
  markSaved: (doc: D) => Partial<S>
  /** The store's fields for the written draft's issues and revision (and a workflow's status). */
  applyIssues: (issues: BlockIssue[], revision: number, meta?: DraftMeta) => Partial<S>
  /** The server runs the same checks: refusing here keeps a broken draft from being written. */
  validate: (doc: D) => { ok: true } | { ok: false; errors: { path: string; message: string }[] }
  /** The toast title of a failed save. */
  errorTitle: () => string
  /** Called once this person may no longer open the draft. */
  onRevoked: () => void
}

export interface CoeditSession {
  state: StoreApi<CoeditState>
  /** Sends where this person is and what they edit (throttled). */
  setPresence: (presence: PresenceState) => void
  follow: (clientId: string | null) => void
  /** Joined: edits go through the shared draft (not the REST saves). */
  isJoined: () => boolean
  /** Applies the copilot's update (base64) as the copilot's change; false when not joined. */
  applyCopilot: (update: string) => boolean
  /** Reverts exactly that copilot change (an edit of this person's); false when unknown. */
  undoCopilot: (update: string) => boolean
  stop: () => void
}

/** What the server answers a write: the draft's revision and issues, as a REST save. */
export interface Written {
  revision: number
  issues: BlockIssue[]
  meta?: DraftMeta
}

export interface JoinAnswer {
  state: string
  workspaceId: string
}
