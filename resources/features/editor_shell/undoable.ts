import { push, redo, undo, type History, type HistoryOptions } from '#shared/bot/history'

/** Form edits typed in a row land in one undo step when they touch the same thing. */
const COALESCE_MS = 1000

interface UndoableState<D> {
  readOnly: boolean
  history: History<D>
  lastEdit: { key: string; at: number } | null
}

/**
 * The editing actions both editors share: `edit` applies a pure function to the present
 * document (nothing in read-only modes, nothing when it returns the same document); edits
 * of one `coalesceKey` within a second replace each other instead of filling the undo
 * history.
 */
export function createUndoable<S extends UndoableState<D>, D>(
  get: () => S,
  set: (partial: Partial<S>) => void,
  options?: HistoryOptions<D>
) {
  return {
    edit(fn: (doc: D) => D, editOptions: { coalesceKey?: string } = {}) {
      const state = get()
      if (state.readOnly) return
      const next = fn(state.history.present)
      if (next === state.history.present) return
      const now = Date.now()
      const key = editOptions.coalesceKey
      const coalesce =
        key !== undefined &&
        state.lastEdit?.key === key &&
        now - state.lastEdit.at < COALESCE_MS &&
        state.history.past.length > 0
      set({
        history: coalesce
          ? { ...state.history, present: next, future: [] }
          : push(state.history, next, options),
        lastEdit: key === undefined ? null : { key, at: now },
      } as Partial<S>)
    },
    undo() {
      const state = get()
      if (state.readOnly) return
      set({ history: undo(state.history, options), lastEdit: null } as Partial<S>)
    },
    redo() {
      const state = get()
      if (state.readOnly) return
      set({ history: redo(state.history), lastEdit: null } as Partial<S>)
    },
  }
}
