import { useStoreAutosave, type AutosaveAdapter } from '~/lib/use_autosave'
import type { BotEditorState, BotEditorStore } from './bot_editor_store'

export { AUTOSAVE_DEBOUNCE_MS } from '~/lib/use_autosave'

const botAutosave: AutosaveAdapter<BotEditorState> = {
  readOnly: (state) => state.readOnly,
  draft: (state) => state.history.present,
  isSaved: (state) => state.history.present === state.savedBot,
  isSaving: (state) => state.saving,
  save: (state) => state.save(),
}

/**
 * Autosave of the bot editor (the shared hook in resources/lib/use_autosave.ts): 15 s
 * after the last change, when the tab is hidden and before an Inertia visit; a leave
 * warning while unsaved changes exist.
 */
export function useAutosave(store: BotEditorStore) {
  useStoreAutosave(store, botAutosave)
}
