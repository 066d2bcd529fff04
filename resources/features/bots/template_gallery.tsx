import { useCallback, useEffect, useMemo, useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CircleAlert, RotateCcw } from 'lucide-react'
import {
  TEMPLATE_CATEGORIES,
  type BotTemplateSummary,
  type TemplateCategory,
} from '#shared/bot/templates'
import type { StartChatResponse } from '#shared/chat/types'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { cn } from '~/lib/utils'
import { chatErrorText } from '~/features/viewer/chat_client'
import { ChatSkeleton } from '~/features/viewer/chat_skeleton'
import { ChatView } from '~/features/viewer/chat_view'
import { createTemplatePreviewClient, fetchTemplates } from './template_chat_client'
import { visitSucceeded, type FolderDto } from './types'

type Filter = TemplateCategory | 'all'

type ListState =
  | { status: 'loading' }
  | { status: 'ready'; templates: BotTemplateSummary[] }
  | { status: 'error'; message: string }

type PreviewState =
  | { status: 'loading' }
  | { status: 'ready'; start: StartChatResponse }
  | { status: 'error'; message: string }

/** Names and descriptions in the user's language; the file's English as the fallback. */
function useTemplateText() {
  const { t } = useTranslation()
  return useCallback(
    (template: BotTemplateSummary) => ({
      name: t(`botTemplates.items.${template.id}.name`, { defaultValue: template.name }),
      description: t(`botTemplates.items.${template.id}.description`, {
        defaultValue: template.description,
      }),
    }),
    [t]
  )
}

function CategoryFilter({
  value,
  onChange,
  counts,
}: {
  value: Filter
  onChange: (value: Filter) => void
  counts: Map<Filter, number>
}) {
  const { t } = useTranslation()
  const options: Filter[] = ['all', ...TEMPLATE_CATEGORIES]
  return (
    <div
      role="group"
      aria-label={t('botTemplates.filterLabel')}
      className="flex flex-wrap gap-1.5"
      data-testid="template-filter"
    >
      {options.map((option) => (
        <Button
          key={option}
          type="button"
          size="sm"
          variant={value === option ? 'default' : 'outline'}
          aria-pressed={value === option}
          data-category={option}
          onClick={() => onChange(option)}
        >
          {t(`botTemplates.categories.${option}`)}
          <span className="text-xs opacity-70">{counts.get(option) ?? 0}</span>
        </Button>
      ))}
    </div>
  )
}

function TemplatePreview({ template }: { template: BotTemplateSummary }) {
  const { t } = useTranslation()
  const client = useMemo(() => createTemplatePreviewClient(template.id), [template.id])
  const [run, setRun] = useState(0)
  const [state, setState] = useState<PreviewState>({ status: 'loading' })

  useEffect(() => {
    const controller = new AbortController()
    setState({ status: 'loading' })
    client
      .start(controller.signal)
      .then((start) => !controller.signal.aborted && setState({ status: 'ready', start }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setState({
          status: 'error',
          message: chatErrorText(error, t('botTemplates.preview.error')),
        })
      })
    return () => controller.abort()
  }, [client, run, t])

  return (
    <section
      aria-label={t('botTemplates.preview.label')}
      data-testid="template-preview"
      className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border"
    >
      <header className="flex h-10 shrink-0 items-center gap-2 border-b px-3">
        <h3 className="text-sm font-medium">{t('botTemplates.preview.title')}</h3>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="ms-auto"
          onClick={() => setRun((value) => value + 1)}
          data-testid="template-preview-restart"
        >
          <RotateCcw aria-hidden />
          {t('botTemplates.preview.restart')}
        </Button>
      </header>
      <div className="min-h-0 flex-1">
        {state.status === 'loading' && <ChatSkeleton />}
        {state.status === 'error' && (
          <div
            role="alert"
            className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center"
          >
            <CircleAlert className="size-8 text-destructive" aria-hidden />
            <p className="text-sm">{state.message}</p>
            <Button variant="outline" size="sm" onClick={() => setRun((value) => value + 1)}>
              {t('botTemplates.retry')}
            </Button>
          </div>
        )}
        {state.status === 'ready' && (
          <ChatView key={state.start.sessionId} start={state.start} client={client} />
        )}
      </div>
    </section>
  )
}

function ListSkeleton() {
  return (
    <div className="grid gap-2" aria-hidden data-testid="template-list-loading">
      {[0, 1, 2, 3, 4].map((key) => (
        <Skeleton key={key} className="h-16 w-full" />
      ))}
    </div>
  )
}

/**
 * "Start from a template": our templates by category, a live preview to chat with, and
 * "Use this template", which creates the bot (in `folder`) and opens the editor.
 */
export function TemplateGallery({ folder }: { folder: FolderDto | null }) {
  const { t } = useTranslation()
  const textOf = useTemplateText()
  const [list, setList] = useState<ListState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [filter, setFilter] = useState<Filter>('all')
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [creating, setCreating] = useState(false)

  useEffect(() => {
    const controller = new AbortController()
    setList({ status: 'loading' })
    fetchTemplates(controller.signal)
      .then((templates) => !controller.signal.aborted && setList({ status: 'ready', templates }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setList({ status: 'error', message: (error as Error).message })
      })
    return () => controller.abort()
  }, [attempt])

  const templates = list.status === 'ready' ? list.templates : []
  const counts = useMemo(() => {
    const map = new Map<Filter, number>([['all', templates.length]])
    for (const template of templates)
      map.set(template.category, (map.get(template.category) ?? 0) + 1)
    return map
  }, [templates])
  const visible = useMemo(
    () => (filter === 'all' ? templates : templates.filter((tpl) => tpl.category === filter)),
    [templates, filter]
  )
  // The selection follows the filter: a template hidden by it gives way to the first shown.
  const selected = visible.find((tpl) => tpl.id === selectedId) ?? visible[0] ?? null

  function createFromTemplate(template: BotTemplateSummary) {
    router.post(
      `/bots/templates/${encodeURIComponent(template.id)}`,
      folder ? { folderId: folder.id } : {},
      {
        preserveScroll: true,
        preserveState: (page) => !visitSucceeded(page),
        onStart: () => setCreating(true),
        onFinish: () => setCreating(false),
      }
    )
  }

  if (list.status === 'error') {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-10 text-center">
        <CircleAlert className="size-8 text-destructive" aria-hidden />
        <p className="text-sm">{t('botTemplates.loadError')}</p>
        <p className="text-sm text-muted-foreground">{list.message}</p>
        <Button variant="outline" size="sm" onClick={() => setAttempt((value) => value + 1)}>
          {t('botTemplates.retry')}
        </Button>
      </div>
    )
  }

  return (
    <div className="grid gap-4" data-testid="template-gallery">
      <CategoryFilter value={filter} onChange={setFilter} counts={counts} />
      <div className="grid h-[min(62vh,560px)] min-h-0 gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,380px)]">
        <div className="min-h-0 overflow-y-auto pe-1">
          {list.status === 'loading' ? (
            <ListSkeleton />
          ) : visible.length === 0 ? (
            <div
              className="flex flex-col items-center gap-3 py-10 text-center text-sm text-muted-foreground"
              data-testid="template-list-empty"
            >
              <p>{t('botTemplates.empty')}</p>
              <Button variant="outline" size="sm" onClick={() => setFilter('all')}>
                {t('botTemplates.showAll')}
              </Button>
            </div>
          ) : (
            <ul className="grid gap-2" aria-label={t('botTemplates.listLabel')}>
              {visible.map((template) => {
                const text = textOf(template)
                const isSelected = selected?.id === template.id
                return (
                  <li key={template.id}>
                    <button
                      type="button"
                      aria-pressed={isSelected}
                      data-testid={`template-${template.id}`}
                      onClick={() => setSelectedId(template.id)}
                      className={cn(
                        'flex w-full items-start gap-3 rounded-lg border bg-card p-3 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
                        isSelected && 'border-primary bg-primary/5'
                      )}
                    >
                      <span className="text-2xl leading-none" aria-hidden>
                        {template.emoji}
                      </span>
                      <span className="grid min-w-0 gap-0.5">
                        <span className="text-sm font-semibold">{text.name}</span>
                        <span className="line-clamp-2 text-xs text-muted-foreground">
                          {text.description}
                        </span>
                        <span className="text-xs text-muted-foreground">
                          {t(`botTemplates.categories.${template.category}`)} ·{' '}
                          {t('botTemplates.blocks', { count: template.blockCount })}
                        </span>
                      </span>
                    </button>
                  </li>
                )
              })}
            </ul>
          )}
        </div>
        <div className="flex min-h-0 flex-col gap-3">
          {selected ? (
            <>
              <TemplatePreview key={selected.id} template={selected} />
              <Button
                type="button"
                onClick={() => createFromTemplate(selected)}
                disabled={creating}
                data-testid="use-template"
              >
                {creating ? t('common.creating') : t('botTemplates.use')}
              </Button>
            </>
          ) : list.status === 'loading' ? (
            <Skeleton className="h-full w-full" />
          ) : null}
        </div>
      </div>
    </div>
  )
}
