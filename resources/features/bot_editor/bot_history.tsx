import { useMemo, useState } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { diffBots, unionById, type ChangeKind } from '#shared/history/diff'
import type { BotHistoryDto } from '#shared/history/types'
import type { BotSnapshot, BotV6 } from '#shared/bot/types'
import { jsonFetch } from '~/lib/http'
import { HistoryPanel, type HistoryAdapter } from '~/features/editor_shell/history_panel'
import {
  BotEditorContext,
  createBotEditorStore,
  useBotEditor,
  useBotEditorApi,
} from './bot_editor_store'
import { GraphCanvas } from './graph_canvas'
import { useEditorPlugins } from './editor_plugins'
import type { BotSaveResponse } from './types'

/** The bot's history: the shared history panel (editor_shell) on bot versions. */
export function BotHistory() {
  return <HistoryPanel adapter={useBotHistoryAdapter()} />
}

/** Bot versions as the shared history panel and the copilot's previews read them. */
export function useBotHistoryAdapter(): HistoryAdapter<BotSnapshot> {
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const readOnly = useBotEditor((state) => state.readOnly)
  const plugins = useEditorPlugins()

  const adapter = useMemo<HistoryAdapter<BotSnapshot>>(
    () => ({
      readOnly,
      async list() {
        // The list shows what the server holds: pending edits go first.
        await api.getState().save()
        const history = await jsonFetch<BotHistoryDto<BotSnapshot>>(
          `/api/v1/bots/${botId}/versions`
        )
        return (history.versions ?? []).map((version) => ({
          id: version.id,
          versionName: version.versionName,
          kind: version.kind,
          snapshot: version.content,
          author: version.author,
          updatedAt: version.updatedAt,
        }))
      },
      async saveNamed(name) {
        // A failed save says why itself; the version then keeps what the server holds.
        await api.getState().save()
        await jsonFetch(`/api/v1/bots/${botId}/versions`, { method: 'POST', body: { name } })
      },
      async restore(version) {
        await api.getState().save()
        const { bot } = await jsonFetch<BotSaveResponse>(
          `/api/v1/bots/${botId}/versions/${version.id}/restore`,
          { method: 'POST' }
        )
        api.getState().replaceWithSaved(bot)
      },
      diff: diffBots,
      typeName: (type) => plugins.get(type)?.name,
      merge: (before, after) => ({
        ...after,
        groups: unionById(before.groups, after.groups),
        events: unionById(before.events, after.events),
        edges: unionById(before.edges, after.edges),
      }),
      canvas: ({ snapshot, diff, testId }) => (
        <PreviewCanvas snapshot={snapshot} diff={diff} testId={testId} />
      ),
    }),
    [api, botId, readOnly, plugins]
  )
  return adapter
}

/** A version's graph on a read-only canvas of its own (its own store, its own viewport). */
function PreviewCanvas({
  snapshot,
  diff,
  testId,
}: {
  snapshot: BotSnapshot
  diff?: Record<string, ChangeKind>
  testId: string
}) {
  const [store] = useState(() =>
    createBotEditorStore({
      bot: { ...(snapshot as BotV6), version: '6', id: testId },
      readOnly: true,
      published: null,
      diff,
    })
  )
  return (
    <BotEditorContext.Provider value={store}>
      <ReactFlowProvider>
        <div className="relative size-full" data-testid={testId}>
          <GraphCanvas graphNavigation="mouse" />
        </div>
      </ReactFlowProvider>
    </BotEditorContext.Provider>
  )
}
