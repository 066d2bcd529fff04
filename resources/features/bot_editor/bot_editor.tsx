import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import {
  ConflictNotice,
  ReadOnlyBanner,
  useBodyScrollLock,
  useDraftAutosave,
  useEditorShortcuts,
} from '~/features/editor_shell/editor_frame'
import {
  CoeditContext,
  CoeditOfflineNotice,
  useCoeditSession,
} from '~/features/editor_shell/coedit_ui'
import { copySelection, pasteSelection, type BotClipboard } from '#shared/bot/editing'
import type { GraphNavigation } from '#shared/workspace_roles'
import type { BotV6 } from '#shared/bot/types'
import { usePageProps } from '~/hooks/use_shared_props'
import { jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import {
  BotEditorContext,
  botCoedit,
  createBotEditorStore,
  useBotEditor,
  type BotEditorState,
} from './bot_editor_store'
import { EditorPluginsContext } from './editor_plugins'
import { usePluginLocales } from '~/features/workflow_editor/plugin_locales'
import { translateForm, translatedPluginName } from '~/features/plugin_form/translated_form'
import { EditorHeader } from './editor_header'
import { GraphCanvas } from './graph_canvas'
import { BlocksSidebar } from './blocks_sidebar'
import { EditorPreview } from './editor_preview'
import { EngineUpdateWarning } from './engine_update_warning'
import { BotCopilot } from './bot_copilot'
import { TourHost } from '~/features/onboarding/tour_host'
import type { EditorPageProps } from './types'
import { usePublishedRefetch } from './use_published_refetch'
import { LanguagesDock } from './languages_panel'

/*
 * Out of the editor's first bundle (DESIGN section 6): the block form (plugin forms, rich
 * text), the Theme and Settings tabs and Results load when first shown. The block form is
 * fetched once the canvas is up, so the first click on a block does not wait for it.
 */
const loadBlockSettings = () => import('./block_settings')
const BlockSettings = lazy(() => loadBlockSettings().then((m) => ({ default: m.BlockSettings })))
const SettingsPanel = lazy(() =>
  import('./bot_settings_panels').then((m) => ({ default: m.SettingsPanel }))
)
const ThemePanel = lazy(() =>
  import('./bot_settings_panels').then((m) => ({ default: m.ThemePanel }))
)
const ResultsTab = lazy(() =>
  import('~/features/results/results_tab').then((m) => ({ default: m.ResultsTab }))
)

/** The settings panel of the open block, mounted (and its code loaded) only while one is. */
function OpenBlockSettings() {
  const open = useBotEditor((state) => state.openBlockId !== null)
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200))
    idle(() => void loadBlockSettings())
  }, [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <BlockSettings />
    </Suspense>
  )
}

/** The clipboard outlives the page, so groups can be pasted into another bot. */
let clipboard: BotClipboard | null = null

/** Ctrl/Cmd+C and Ctrl/Cmd+V on the selected groups. */
function onBotKey(key: string, event: KeyboardEvent, state: BotEditorState) {
  if (key === 'c') {
    const ids = Object.keys(state.selection.groups)
    if (ids.length === 0 || window.getSelection()?.toString()) return
    clipboard = copySelection(state.history.present, ids)
  } else if (key === 'v' && clipboard) {
    event.preventDefault()
    const copied = clipboard
    state.edit((bot) => pasteSelection(bot, copied).bot)
  }
}

const savedBot = (state: BotEditorState) => state.savedBot

export function BotEditor({
  tab,
  resultsView,
  bot,
  storedVersion,
  currentUserMode,
  published,
  plugins: serverPlugins,
  issues,
}: EditorPageProps) {
  const { t } = useTranslation()
  const { user } = usePageProps()
  const readOnly = currentUserMode !== 'write'
  const [store] = useState(() => createBotEditorStore({ bot, readOnly, published, issues }))
  // Block names and form labels in the builder's language, once the plugins' files are in.
  const pluginIds = useMemo(() => serverPlugins.map((plugin) => plugin.id), [serverPlugins])
  const pluginLanguage = usePluginLocales(pluginIds)
  const plugins = useMemo(
    () =>
      serverPlugins.map((plugin) => ({
        ...plugin,
        name: translatedPluginName(plugin.id, plugin.name),
        form: translateForm(plugin.id, plugin.form),
      })),
    // pluginLanguage changes when a language's files are loaded: translate again then.
    [serverPlugins, pluginLanguage]
  )
  const pluginMap = useMemo(() => new Map(plugins.map((plugin) => [plugin.id, plugin])), [plugins])
  const [graphNavigation, setGraphNavigation] = useState<GraphNavigation>(
    user?.graphNavigation ?? 'mouse'
  )
  // Everyone who may open the bot edits (or, read-only, watches) it live with the others.
  const coedit = useCoeditSession<BotEditorState, BotV6>({
    enabled: !!user,
    kind: 'bots',
    id: bot.id,
    userId: user?.id ?? '',
    store,
    ...botCoedit,
  })
  useDraftAutosave(store, savedBot)
  useEditorShortcuts(store, !readOnly, onBotKey)
  useBodyScrollLock()
  usePublishedRefetch(store, currentUserMode !== 'guest')

  async function changeGraphNavigation(value: GraphNavigation) {
    const previous = graphNavigation
    setGraphNavigation(value)
    if (!user) return
    try {
      await jsonFetch(`/api/users/${user.id}`, {
        method: 'PATCH',
        body: { graphNavigation: value },
      })
    } catch (error) {
      setGraphNavigation(previous)
      showToast('error', t('settings.userUpdateError.title'), (error as Error).message)
    }
  }

  return (
    <CoeditContext.Provider value={coedit}>
      <BotEditorContext.Provider value={store}>
        <EditorPluginsContext.Provider value={pluginMap}>
          <ReactFlowProvider>
            <div className="flex h-dvh flex-col overflow-hidden bg-background">
              <EditorHeader
                tab={tab}
                graphNavigation={graphNavigation}
                onGraphNavigationChange={changeGraphNavigation}
              />
              {!readOnly && storedVersion !== '6' && (
                <EngineUpdateWarning storedVersion={storedVersion} />
              )}
              <ConflictNotice store={store} />
              <CoeditOfflineNotice />
              {readOnly && <ReadOnlyBanner message={t('editor.readOnly')} />}
              <main className="relative min-h-0 flex-1" data-tour="editor-canvas">
                {tab === 'edit' && (
                  <>
                    <GraphCanvas graphNavigation={graphNavigation} />
                    {!readOnly && <BlocksSidebar plugins={plugins} />}
                    <OpenBlockSettings />
                    {!readOnly && <BotCopilot />}
                    {!readOnly && <LanguagesDock />}
                  </>
                )}
                {(tab === 'edit' || tab === 'theme') && currentUserMode !== 'guest' && (
                  <EditorPreview botId={bot.id} />
                )}
                <Suspense fallback={null}>
                  {tab === 'settings' && <SettingsPanel />}
                  {tab === 'theme' && <ThemePanel />}
                  {tab === 'results' && <ResultsTab botId={bot.id} initialView={resultsView} />}
                </Suspense>
              </main>
            </div>
            <TourHost autoStart={!readOnly && tab === 'edit'} />
          </ReactFlowProvider>
        </EditorPluginsContext.Provider>
      </BotEditorContext.Provider>
    </CoeditContext.Provider>
  )
}
