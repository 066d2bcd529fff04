import { useContext, useEffect, useMemo, useRef } from 'react'
import type { HistoryAdapter } from './history_panel'
import type { CopilotEditorAdapter } from './copilot_panel'
import { CoeditContext } from './coedit_ui'

/** What the copilot needs of an editor's store, read when the reply comes. */
export interface CopilotEditorStore<D> {
  save: () => Promise<boolean>
  replaceWithSaved: (document: D) => void
  undo: () => void
}

/**
 * The copilot panel's adapter for either editor (docs/copilot.md). In a shared draft the
 * copilot's change is applied and undone as the copilot's, never as this person's own edit;
 * alone, the document it saved is one step of the store's history.
 */
export function useCopilotAdapter<S, D>(options: {
  apiBase: string
  readOnly: boolean
  store: () => CopilotEditorStore<D>
  history: HistoryAdapter<S>
}): CopilotEditorAdapter<S> {
  const { apiBase, readOnly, store, history } = options
  // Read when the reply comes: the session starts after the panel may have opened, and a
  // new adapter would load the conversation again.
  const session = useContext(CoeditContext)
  const coeditRef = useRef(session)
  useEffect(() => {
    coeditRef.current = session
  }, [session])
  const storeRef = useRef(store)
  storeRef.current = store
  return useMemo<CopilotEditorAdapter<S>>(
    () => ({
      apiBase,
      readOnly,
      flush: () => storeRef.current().save(),
      apply: (document, update) => {
        const coedit = coeditRef.current
        if (coedit?.isJoined()) return update !== null && coedit.applyCopilot(update)
        storeRef.current().replaceWithSaved(document as D)
        return true
      },
      undo: (update) => {
        const coedit = coeditRef.current
        if (coedit?.isJoined()) {
          if (update !== null) coedit.undoCopilot(update)
        } else storeRef.current().undo()
      },
      history,
    }),
    [apiBase, readOnly, history]
  )
}
