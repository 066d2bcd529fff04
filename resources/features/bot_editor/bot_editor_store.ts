import { createContext, useContext } from 'react'
import { createStore, useStore, type StoreApi } from 'zustand'
import i18n from 'i18next'
import type { BotV6 } from '#shared/bot/types'
import { jsonEqual } from '#shared/json_equal'
import { issuesByBlock, type BlockIssue } from '#shared/block_issues'
import type { ChangeKind } from '#shared/history/diff'
import { createHistory, push } from '#shared/bot/history'
import { validateBot } from '#shared/bot/parse'
import type { SaveOptions } from '~/features/editor_shell/save_queue'
import { createDraftSync, type DraftSyncState } from '~/features/editor_shell/draft_sync'
import { createUndoable } from '~/features/editor_shell/undoable'
import type { BotSaveResponse, PublishedContent, ServerBot } from './types'

/**
 * The bot editor's state (DESIGN section 6): one store per editor page. The bot lives in
 * an undo history (app/shared/bot/history.ts) and changes only through the pure editing
 * functions of app/shared/bot/editing.ts, passed to `edit`. Selection is its own map.
 */

export type SaveStatus = 'saved' | 'saving' | 'unsaved'

export interface BotEditorState extends DraftSyncState<BotV6> {
  botId: string
  /** The state the server holds: a failed save returns to it. */
  savedBot: BotV6
  published: PublishedContent | null
  /** Selected group ids and edge ids (React Flow keeps its own copy for drawing). */
  selection: { groups: Record<string, true>; edges: Record<string, true> }
  /** The block whose settings panel is open. */
  openBlockId: string | null
  lastEdit: { key: string; at: number } | null
  /** A comparison canvas: what changed, by group, block, event and edge id (null elsewhere). */
  diff: Record<string, ChangeKind> | null
  /**
   * Fields the server's validators refuse, by block id, as of the last save: drawn beside
   * the fields and on the blocks; publishing is refused while any remain.
   */
  issues: Record<string, BlockIssue[]>

  /**
   * Applies a pure editing function to the present bot. Nothing happens in read-only
   * modes or when the function returns the same bot. With `coalesceKey`, edits of the
   * same key within a second replace each other instead of filling the undo history.
   */
  edit: (fn: (bot: BotV6) => BotV6, options?: { coalesceKey?: string }) => void
  undo: () => void
  redo: () => void
  setSelection: (selection: { groups?: string[]; edges?: string[] }) => void
  openBlock: (blockId: string | null) => void
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
  setPublished: (published: PublishedContent | null) => void
  /**
   * Takes the server's bot metadata (publicId, customDomain, isClosed): saved apart from the
   * content, so it is written into every history state and the saved state, not undoable.
   */
  syncMetadata: (bot: Partial<Pick<BotV6, BotMetadataKey>>) => void
  /** Replaces the present bot with one the server holds (restore published): a new undo step, saved. */
  replaceWithSaved: (bot: ServerBot) => void
}

/** Bot fields saved by their own PATCH calls, outside the content autosave. */
export const BOT_METADATA_KEYS = ['publicId', 'customDomain', 'isClosed'] as const
export type BotMetadataKey = (typeof BOT_METADATA_KEYS)[number]

export type BotEditorStore = StoreApi<BotEditorState>

/** The bot's draft content: what a save sends and what co-editing shares. */
export function botBody(bot: BotV6) {
  return {
    name: bot.name,
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
    // Which theme template the Theme tab applied last (built-in or the workspace's).
    selectedThemeTemplateId: bot.selectedThemeTemplateId ?? null,
  }
}

/** How the bot's draft is shared with its other editors (editor_shell/coedit_session.ts). */
export const botCoedit = {
  bodyOf: botBody,
  saved: (state: BotEditorState) => state.savedBot,
  markSaved: (bot: BotV6) => ({ savedBot: bot }),
  applyIssues: (issues: BlockIssue[], revision: number) => ({
    issues: issuesByBlock(issues),
    revision,
  }),
  validate: validateBot,
  errorTitle: () => i18n.t('editor.errors.updateBot'),
}

function toSet(ids: string[] | undefined): Record<string, true> {
  const map: Record<string, true> = {}
  for (const id of ids ?? []) map[id] = true
  return map
}

export function createBotEditorStore(init: {
  bot: ServerBot
  readOnly: boolean
  published: PublishedContent | null
  diff?: Record<string, ChangeKind>
  issues?: BlockIssue[]
}): BotEditorStore {
  /** States rewritten by syncMetadata: a save in flight then marks the rewritten one saved. */
  const rewritten = new WeakMap<BotV6, BotV6>()
  const latest = (bot: BotV6) => {
    let current = bot
    while (rewritten.has(current)) current = rewritten.get(current)!
    return current
  }

  return createStore<BotEditorState>()((set, get) => {
    const sync = createDraftSync<BotEditorState, BotV6, BotSaveResponse>({
      get,
      set,
      saved: (state) => state.savedBot,
      markSaved: (bot, response) => ({
        savedBot: latest(bot),
        ...(response?.issues ? { issues: issuesByBlock(response.issues) } : {}),
      }),
      validate: validateBot,
      url: (state) => `/api/v1/bots/${state.botId}`,
      bodyOf: botBody,
      revisionOf: (response) => response.bot.revision,
      errorTitle: () => i18n.t('editor.errors.updateBot'),
      apply: (response) => get().replaceWithSaved(response.bot),
      fetchErrorTitle: () => i18n.t('fetchErrors.bot'),
      onRevert: () => ({ openBlockId: null }),
    })

    const editing = createUndoable<BotEditorState, BotV6>(get, set)

    return {
      botId: init.bot.id,
      readOnly: init.readOnly,
      history: createHistory<BotV6>(init.bot),
      savedBot: init.bot,
      saving: false,
      revision: init.bot.revision ?? 0,
      conflict: false,
      published: init.published,
      issues: issuesByBlock(init.issues ?? []),
      selection: { groups: {}, edges: {} },
      openBlockId: null,
      lastEdit: null,
      diff: init.diff ?? null,

      ...editing,
      setSelection(selection) {
        set((state) => ({
          selection: {
            groups: selection.groups ? toSet(selection.groups) : state.selection.groups,
            edges: selection.edges ? toSet(selection.edges) : state.selection.edges,
          },
        }))
      },
      openBlock(blockId) {
        set({ openBlockId: blockId })
      },
      save: sync.save,
      saveOnLeave: sync.saveOnLeave,
      keepMine: sync.keepMine,
      reloadTheirs: sync.reloadTheirs,
      setPublished(published) {
        set({ published })
      },
      syncMetadata(metadata) {
        const patch: Partial<BotV6> = {}
        for (const key of BOT_METADATA_KEYS) {
          if (metadata[key] !== undefined) (patch as Record<string, unknown>)[key] = metadata[key]
        }
        const state = get()
        // One rewritten object per state, so `present === savedBot` keeps its meaning.
        const map = new Map<BotV6, BotV6>()
        const apply = (bot: BotV6) => {
          let next = map.get(bot)
          if (!next) {
            next = { ...bot, ...patch }
            map.set(bot, next)
            rewritten.set(bot, next)
          }
          return next
        }
        set({
          history: {
            past: state.history.past.map(apply),
            present: apply(state.history.present),
            future: state.history.future.map(apply),
          },
          savedBot: apply(state.savedBot),
        })
      },
      replaceWithSaved(bot) {
        const state = get()
        set({
          history: push(state.history, bot),
          savedBot: bot,
          // Written elsewhere (a restore, the copilot): later saves build on its revision.
          ...(bot.revision !== undefined ? { revision: bot.revision, conflict: false } : {}),
          lastEdit: null,
          openBlockId: null,
          selection: { groups: {}, edges: {} },
        })
      },
    }
  })
}

export const BotEditorContext = createContext<BotEditorStore | null>(null)

export function useBotEditorApi(): BotEditorStore {
  const store = useContext(BotEditorContext)
  if (!store) throw new Error('useBotEditor must be used inside <BotEditorContext>')
  return store
}

/** Selects from the editor store: keep selectors narrow (one group by id, a flag...). */
export function useBotEditor<T>(selector: (state: BotEditorState) => T): T {
  return useStore(useBotEditorApi(), selector)
}

export function selectSaveStatus(state: BotEditorState): SaveStatus {
  if (state.saving) return 'saving'
  return state.history.present === state.savedBot ? 'saved' : 'unsaved'
}

/** Published-and-current: the draft's groups, settings, theme, variables and events. */
export function hasUnpublishedChanges(bot: BotV6, published: PublishedContent | null) {
  if (!published) return false
  return !(
    jsonEqual(bot.groups, published.groups) &&
    jsonEqual(bot.settings, published.settings) &&
    jsonEqual(bot.theme, published.theme) &&
    jsonEqual(bot.variables, published.variables) &&
    jsonEqual(bot.events, published.events)
  )
}
