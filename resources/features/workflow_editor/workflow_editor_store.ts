import { createContext, useContext } from 'react'
import { createStore, useStore, type StoreApi } from 'zustand'
import i18n from 'i18next'
import { createHistory, push, type HistoryOptions } from '#shared/bot/history'
import { validateWorkflow } from '#shared/workflow/validate'
import type { WorkflowJson } from '#shared/workflow/types'
import type { ChangeKind } from '#shared/history/diff'
import type { SaveOptions } from '~/features/editor_shell/save_queue'
import { createDraftSync, type DraftSyncState } from '~/features/editor_shell/draft_sync'
import { createUndoable } from '~/features/editor_shell/undoable'
import { issuesByBlock, type BlockIssue } from '#shared/block_issues'
import type { DraftMeta } from '#shared/coedit/protocol'
import type {
  NodeRunStatus,
  RunProgress,
  WorkflowDoc,
  WorkflowMeta,
  WorkflowSaveResponse,
} from './types'

/**
 * The workflow editor's state (DESIGN section 6): one store per editor page. The edited
 * document lives in an undo history and changes only through the pure functions of
 * workflow_editing.ts, passed to `edit`. Server-owned facts (status, isActive), the
 * selection and run statuses are maps of their own, outside the history.
 */

export type SaveStatus = 'saved' | 'saving' | 'unsaved'

/*
 * A workflow has no containers that an edit can leave empty for a moment (the bot's empty
 * groups): every state is a whole graph, so undo never passes over one.
 */
const historyOptions: HistoryOptions<WorkflowDoc> = { isTransient: () => false }

export interface WorkflowEditorState extends DraftSyncState<WorkflowDoc> {
  workflowId: string
  /** The document the server holds: a failed save returns to it. */
  savedDoc: WorkflowDoc
  meta: WorkflowMeta
  selection: { nodes: Record<string, true>; edges: Record<string, true> }
  /** The node whose settings panel is open. */
  openNodeId: string | null
  /** The last run started from the editor (statuses by node id), null before any. */
  run: RunProgress | null
  lastEdit: { key: string; at: number } | null
  /** A comparison canvas: what changed, by node and edge id (null elsewhere). */
  diff: Record<string, ChangeKind> | null
  /**
   * Fields the server's validators refuse, by node id, as of the last save: drawn beside
   * the fields and on the nodes; publishing and test runs are refused while any remain.
   */
  issues: Record<string, BlockIssue[]>

  /**
   * Applies a pure editing function to the present document. Nothing happens in read-only
   * modes or when the function returns the same document. Edits of one `coalesceKey`
   * within a second replace each other instead of filling the undo history.
   */
  edit: (fn: (doc: WorkflowDoc) => WorkflowDoc, options?: { coalesceKey?: string }) => void
  undo: () => void
  redo: () => void
  setSelection: (selection: { nodes?: string[]; edges?: string[] }) => void
  openNode: (nodeId: string | null) => void
  /** Sends the draft if it changed since the last save. Resolves false on failure. */
  save: (options?: SaveOptions) => Promise<boolean>
  /**
   * The page is going away: sends the unsaved draft as a keepalive request. False when it
   * cannot go that way (too large, or invalid): the page should ask before leaving.
   */
  saveOnLeave: () => boolean
  /** After a conflict (docs/editor.md "Saving from two places"): save the draft over theirs. */
  keepMine: () => Promise<boolean>
  /** After a conflict: drop the draft and load what the server holds. */
  reloadTheirs: () => Promise<boolean>
  /** Takes the server's answer about status and activity (publish, activate, save). */
  applyServerWorkflow: (workflow: WorkflowJson) => void
  /** Replaces the present document with one the server holds (a restore): undoable, saved. */
  replaceWithSaved: (workflow: WorkflowJson) => void
  setRun: (run: RunProgress | null) => void
}

export type WorkflowEditorStore = StoreApi<WorkflowEditorState>

export function docOf(workflow: WorkflowJson): WorkflowDoc {
  return {
    name: workflow.name,
    description: workflow.description ?? null,
    icon: workflow.icon ?? null,
    blocks: workflow.blocks ?? [],
    edges: workflow.edges ?? [],
    variables: workflow.variables ?? [],
    settings: workflow.settings ?? {},
  }
}

export function metaOf(workflow: WorkflowJson): WorkflowMeta {
  return {
    status: workflow.status ?? 'DRAFT',
    isActive: !!workflow.isActive,
    publishedAt: workflow.publishedAt ?? null,
    updatedAt: workflow.updatedAt,
  }
}

function toSet(ids: string[] | undefined): Record<string, true> {
  const map: Record<string, true> = {}
  for (const id of ids ?? []) map[id] = true
  return map
}

/** The workflow's draft content: what a save sends and what co-editing shares. */
export function workflowBody(doc: WorkflowDoc) {
  return {
    name: doc.name,
    blocks: doc.blocks,
    edges: doc.edges,
    variables: doc.variables,
    settings: doc.settings,
  }
}

/** How the workflow's draft is shared with its other editors (editor_shell/coedit_session.ts). */
export const workflowCoedit = {
  bodyOf: workflowBody,
  saved: (state: WorkflowEditorState) => state.savedDoc,
  markSaved: (doc: WorkflowDoc) => ({ savedDoc: doc }),
  applyIssues: (issues: BlockIssue[], revision: number, meta?: DraftMeta) => ({
    issues: issuesByBlock(issues),
    revision,
    // The write made a published workflow DRAFT again ("unpublished changes"), as a save did.
    ...(meta ? { meta } : {}),
  }),
  validate: validateWorkflow,
  errorTitle: () => i18n.t('workflowEditor.errors.update'),
}

export function createWorkflowEditorStore(init: {
  workflow: WorkflowJson & { id: string }
  readOnly: boolean
  diff?: Record<string, ChangeKind>
  issues?: BlockIssue[]
}): WorkflowEditorStore {
  const initialDoc = docOf(init.workflow)

  return createStore<WorkflowEditorState>()((set, get) => {
    const sync = createDraftSync<WorkflowEditorState, WorkflowDoc, WorkflowSaveResponse>({
      get,
      set,
      saved: (state) => state.savedDoc,
      // The server decides whether this edit unpublished the workflow.
      markSaved: (doc, response) => ({
        savedDoc: doc,
        ...(response?.workflow ? { meta: metaOf(response.workflow) } : {}),
        ...(response?.issues ? { issues: issuesByBlock(response.issues) } : {}),
      }),
      validate: validateWorkflow,
      url: (state) => `/api/v1/workflows/${state.workflowId}`,
      bodyOf: workflowBody,
      revisionOf: (response) => response.workflow?.revision,
      errorTitle: () => i18n.t('workflowEditor.errors.update'),
      apply: (response) => get().replaceWithSaved(response.workflow),
      fetchErrorTitle: () => i18n.t('fetchErrors.workflow'),
      onRevert: () => ({ openNodeId: null }),
      historyOptions,
    })

    const editing = createUndoable<WorkflowEditorState, WorkflowDoc>(get, set, historyOptions)

    return {
      workflowId: init.workflow.id,
      readOnly: init.readOnly,
      history: createHistory<WorkflowDoc>(initialDoc),
      savedDoc: initialDoc,
      saving: false,
      revision: init.workflow.revision ?? 0,
      conflict: false,
      meta: metaOf(init.workflow),
      selection: { nodes: {}, edges: {} },
      openNodeId: null,
      run: null,
      lastEdit: null,
      diff: init.diff ?? null,
      issues: issuesByBlock(init.issues ?? []),

      ...editing,
      setSelection(selection) {
        set((state) => ({
          selection: {
            nodes: selection.nodes ? toSet(selection.nodes) : state.selection.nodes,
            edges: selection.edges ? toSet(selection.edges) : state.selection.edges,
          },
        }))
      },
      openNode(nodeId) {
        set({ openNodeId: nodeId })
      },
      save: sync.save,
      saveOnLeave: sync.saveOnLeave,
      keepMine: sync.keepMine,
      reloadTheirs: sync.reloadTheirs,
      applyServerWorkflow(workflow) {
        set({ meta: metaOf(workflow) })
      },
      replaceWithSaved(workflow) {
        const state = get()
        const doc = docOf(workflow)
        set({
          history: push(state.history, doc, historyOptions),
          savedDoc: doc,
          meta: metaOf(workflow),
          ...(workflow.revision !== undefined
            ? { revision: workflow.revision, conflict: false }
            : {}),
          lastEdit: null,
          openNodeId: null,
          selection: { nodes: {}, edges: {} },
          run: null,
        })
      },
      setRun(run) {
        set({ run })
      },
    }
  })
}

export const WorkflowEditorContext = createContext<WorkflowEditorStore | null>(null)

export function useWorkflowEditorApi(): WorkflowEditorStore {
  const store = useContext(WorkflowEditorContext)
  if (!store) throw new Error('useWorkflowEditor must be used inside <WorkflowEditorContext>')
  return store
}

/** Selects from the editor store: keep selectors narrow (one node by id, a flag...). */
export function useWorkflowEditor<T>(selector: (state: WorkflowEditorState) => T): T {
  return useStore(useWorkflowEditorApi(), selector)
}

export function selectSaveStatus(state: WorkflowEditorState): SaveStatus {
  if (state.saving) return 'saving'
  return state.history.present === state.savedDoc ? 'saved' : 'unsaved'
}

export function selectNodeRunStatus(nodeId: string) {
  return (state: WorkflowEditorState): NodeRunStatus | undefined => state.run?.nodes[nodeId]
}
