import type { BotSnapshot } from '#shared/bot/types'
import { CopilotDock } from '~/features/editor_shell/copilot_panel'
import { useCopilotAdapter } from '~/features/editor_shell/use_copilot_adapter'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { useBotHistoryAdapter } from './bot_history'
import type { ServerBot } from './types'

/** The bot editor's side of the shared copilot panel (docs/copilot.md). */
export function BotCopilot() {
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const readOnly = useBotEditor((state) => state.readOnly)
  const adapter = useCopilotAdapter<BotSnapshot, ServerBot>({
    apiBase: `/api/bots/${botId}`,
    readOnly,
    store: () => api.getState(),
    history: useBotHistoryAdapter(),
  })
  return <CopilotDock adapter={adapter} />
}
