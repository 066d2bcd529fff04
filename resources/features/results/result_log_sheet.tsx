import { memo, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CircleAlertIcon, CircleCheckIcon, InfoIcon } from 'lucide-react'
import type { ResultDetailDto, ResultLogDto } from '#shared/results/types'
import { Badge } from '~/components/ui/badge'
import { Skeleton } from '~/components/ui/skeleton'
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '~/components/ui/sheet'
import { formatDateTime } from '~/lib/format'
import { cn } from '~/lib/utils'
import { fetchResultDetail } from './results_api'
import { useResults, useResultsApi } from './results_store'

const STATUS_ICONS = {
  success: { icon: CircleCheckIcon, className: 'text-success' },
  info: { icon: InfoIcon, className: 'text-primary' },
  error: { icon: CircleAlertIcon, className: 'text-destructive' },
} as const

function valueText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(valueText).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const LogEntry = memo(function LogEntryView({ log }: { log: ResultLogDto }) {
  const { t } = useTranslation()
  const { icon: Icon, className } = STATUS_ICONS[log.status] ?? STATUS_ICONS.info
  const details =
    log.details === null || log.details === undefined
      ? null
      : typeof log.details === 'string'
        ? log.details
        : JSON.stringify(log.details, null, 2)
  return (
    <li data-testid="result-log-entry" data-status={log.status} className="flex gap-2 py-2">
      <Icon
        aria-label={t(`results.logView.${log.status}`)}
        className={cn('mt-0.5 size-4 shrink-0', className)}
      />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm break-words">{log.description}</p>
        <p className="text-xs text-muted-foreground">{formatDateTime(log.createdAt)}</p>
        {details && (
          <details className="text-xs">
            <summary className="cursor-pointer text-muted-foreground">
              {t('results.logView.details')}
            </summary>
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 whitespace-pre-wrap">
              {details}
            </pre>
          </details>
        )}
      </div>
    </li>
  )
})

function DetailBody({ detail }: { detail: ResultDetailDto }) {
  const { t } = useTranslation()
  const device = detail.deviceDetails
    ? Object.values(detail.deviceDetails).map(valueText).filter(Boolean).join(' · ')
    : ''
  const location = detail.location
    ? Object.values(detail.location).map(valueText).filter(Boolean).join(', ')
    : ''
  return (
    <div className="min-h-0 flex-1 space-y-6 overflow-y-auto px-4 pb-6">
      <div className="flex flex-wrap gap-2">
        <Badge variant={detail.isCompleted ? 'success' : 'outline'}>
          {detail.isCompleted ? t('results.status.completed') : t('results.status.notCompleted')}
        </Badge>
        {detail.isArchived && <Badge variant="secondary">{t('results.status.archived')}</Badge>}
      </div>
      {(device || location) && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {device && (
            <>
              <dt className="text-muted-foreground">{t('results.logView.device')}</dt>
              <dd>{device}</dd>
            </>
          )}
          {location && (
            <>
              <dt className="text-muted-foreground">{t('results.logView.location')}</dt>
              <dd>{location}</dd>
            </>
          )}
        </dl>
      )}
      <section>
        <h3 className="mb-2 text-sm font-semibold">{t('results.logView.answers')}</h3>
        {detail.answers.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('results.logView.noAnswers')}</p>
        ) : (
          <dl className="space-y-2" data-testid="result-answers">
            {detail.answers.map((answer, index) => (
              <div key={`${answer.blockId}-${index}`} className="rounded-md border p-2">
                <dt className="text-xs text-muted-foreground">{answer.label}</dt>
                <dd className="text-sm break-words whitespace-pre-wrap">{answer.content}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      {detail.variables.length > 0 && (
        <section>
          <h3 className="mb-2 text-sm font-semibold">{t('results.logView.variables')}</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {detail.variables.map((variable) => (
              <div key={variable.id} className="contents">
                <dt className="text-muted-foreground">{variable.name}</dt>
                <dd className="break-words">{valueText(variable.value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <section>
        <h3 className="mb-1 text-sm font-semibold">{t('results.logView.logs')}</h3>
        {detail.logs.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('results.logView.noLogs')}</p>
        ) : (
          <ul className="divide-y" data-testid="result-logs">
            {detail.logs.map((log) => (
              <LogEntry key={log.id} log={log} />
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

/** The side sheet of one result: its answers, variables and logs with their status. */
export function ResultLogSheet() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const botId = useResults((state) => state.botId)
  const resultId = useResults((state) => state.openResultId)
  const [detail, setDetail] = useState<ResultDetailDto | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    setDetail(null)
    setFailed(false)
    if (!resultId) return
    const controller = new AbortController()
    fetchResultDetail(botId, resultId, controller.signal)
      .then(setDetail)
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true)
      })
    return () => controller.abort()
  }, [botId, resultId])

  return (
    <Sheet open={!!resultId} onOpenChange={(open) => !open && api.getState().openResult(null)}>
      <SheetContent data-testid="result-log-sheet">
        <SheetHeader>
          <SheetTitle>
            {t('results.logView.title', { date: detail ? formatDateTime(detail.createdAt) : '…' })}
          </SheetTitle>
          <SheetDescription className="sr-only">{t('results.logView.logs')}</SheetDescription>
        </SheetHeader>
        {detail ? (
          <DetailBody detail={detail} />
        ) : failed ? (
          <p className="px-4 text-sm text-destructive">{t('results.error.title')}</p>
        ) : (
          <div className="space-y-3 px-4" aria-busy>
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        )}
      </SheetContent>
    </Sheet>
  )
}
