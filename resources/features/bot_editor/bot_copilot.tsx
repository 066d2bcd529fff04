import { useMemo } from 'react'
import type { BotSnapshot } from '#shared/bot/types'
import { CopilotDock, type CopilotEditorAdapter } from '~/features/editor_shell/copilot_panel'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { useBotHistoryAdapter } from './bot_history'
import type { ServerBot } from './types'

/** The bot editor's side of the shared copilot panel (docs/copilot.md). */
export function BotCopilot() {
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const readOnly = useBotEditor((state) => state.readOnly)
  const history = useBotHistoryAdapter()
  const adapter = useMemo<CopilotEditorAdapter<BotSnapshot>>(
    () => ({
      apiBase: `/api/bots/${botId}`,
      readOnly,
      flush: () => api.getState().save(),
      apply: (document) => api.getState().replaceWithSaved(document as ServerBot),
      undo: () => api.getState().undo(),
      history,
    }),
    [api, botId, readOnly, history]
  )
  return <CopilotDock adapter={adapter} />
}
