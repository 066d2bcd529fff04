import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { router } from '@inertiajs/react'
import { ChartNoAxesColumnIcon, TableIcon } from 'lucide-react'
import { cn } from '~/lib/utils'
import { createResultsStore, ResultsContext } from './results_store'
import { ResultsToolbar } from './results_toolbar'
import { ResultsTable } from './results_table'
import { ResultLogSheet } from './result_log_sheet'
import { AnalyticsView } from './analytics_view'

type View = 'table' | 'analytics'

const VIEWS: { view: View; icon: typeof TableIcon }[] = [
  { view: 'table', icon: TableIcon },
  { view: 'analytics', icon: ChartNoAxesColumnIcon },
]

/** The editor's Results tab: the results table, or the analytics drawn on the flow. */
export function ResultsTab({
  botId,
  initialView = 'table',
}: {
  botId: string
  initialView?: View
}) {
  const { t } = useTranslation()
  const [store] = useState(() => createResultsStore(botId))
  const [view, setView] = useState<View>(initialView)

  // The address follows the view (…/results/analytics can be bookmarked), without a request.
  function show(next: View) {
    setView(next)
    const url = `/bots/${botId}/results${next === 'analytics' ? '/analytics' : ''}`
    if (window.location.pathname !== url) {
      router.replace({ url, preserveState: true, preserveScroll: true })
    }
  }

  useEffect(() => {
    void store.getState().init()
  }, [store])

  return (
    <ResultsContext.Provider value={store}>
      <div data-testid="results-tab" className="absolute inset-0 flex flex-col">
        <div className="flex shrink-0 items-center gap-3 border-b px-4 py-2">
          <div
            role="group"
            aria-label={t('results.views.label')}
            className="inline-flex rounded-md bg-muted p-0.5"
          >
            {VIEWS.map(({ view: entry, icon: Icon }) => (
              <button
                key={entry}
                type="button"
                data-testid={`results-view-${entry}`}
                aria-pressed={view === entry}
                onClick={() => show(entry)}
                className={cn(
                  'inline-flex items-center gap-1.5 rounded px-3 py-1 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring/50',
                  view === entry
                    ? 'bg-background text-foreground shadow-xs'
                    : 'text-muted-foreground hover:text-foreground'
                )}
              >
                <Icon aria-hidden className="size-4" />
                {t(`results.views.${entry}`)}
              </button>
            ))}
          </div>
          {view === 'table' && <ResultsToolbar />}
        </div>
        {view === 'table' ? <ResultsTable /> : <AnalyticsView botId={botId} />}
        <ResultLogSheet />
      </div>
    </ResultsContext.Provider>
  )
}
