import { useStoreAutosave, type AutosaveAdapter } from '~/lib/use_autosave'
import type { BotEditorState, BotEditorStore } from './bot_editor_store'

export { AUTOSAVE_DEBOUNCE_MS } from '~/lib/use_autosave'

const botAutosave: AutosaveAdapter<BotEditorState> = {
  readOnly: (state) => state.readOnly,
  draft: (state) => state.history.present,
  isSaved: (state) => state.history.present === state.savedBot,
  save: (state) => state.save(),
  saveOnLeave: (state) => state.saveOnLeave(),
}

/**
 * Autosave of the bot editor: the shared hook in resources/lib/use_autosave.ts
 * (docs/workflows.md "Autosave").
 */
export function useAutosave(store: BotEditorStore) {
  useStoreAutosave(store, botAutosave)
}
