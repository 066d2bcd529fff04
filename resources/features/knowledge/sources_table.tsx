import { useTranslation } from 'react-i18next'
import { RefreshCwIcon, Trash2Icon } from 'lucide-react'
import type { KnowledgeSourceDto } from '#shared/knowledge'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'

function StatusBadge({ source }: { source: KnowledgeSourceDto }) {
  const { t } = useTranslation()
  const label =
    source.status === 'PROCESSING'
      ? t('knowledge.status.PROCESSING', { progress: source.progress })
      : t(`knowledge.status.${source.status}`)
  const variant =
    source.status === 'COMPLETED'
      ? 'success'
      : source.status === 'FAILED'
        ? 'destructive'
        : 'secondary'
  return (
    <Badge variant={variant} data-testid="source-status" data-status={source.status}>
      {label}
    </Badge>
  )
}

/** The sources of a store with their status, live while they are indexed. */
export function SourcesTable({
  sources,
  canWrite,
  onReindex,
  onDelete,
}: {
  sources: KnowledgeSourceDto[]
  canWrite: boolean
  onReindex: (source: KnowledgeSourceDto) => void
  onDelete: (source: KnowledgeSourceDto) => void
}) {
  const { t } = useTranslation()
  if (sources.length === 0) {
    return (
      <p
        className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="sources-empty"
      >
        {t('knowledge.sources.empty')}
      </p>
    )
  }
  return (
    <ul className="divide-y rounded-lg border" data-testid="source-list">
      {sources.map((source) => {
        const busy = source.status === 'PENDING' || source.status === 'PROCESSING'
        return (
          <li key={source.id} className="grid gap-1 p-3" data-testid="source-row">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="outline">{t(`knowledge.types.${source.type}`)}</Badge>
              <span className="min-w-0 flex-1 truncate text-sm font-medium" title={source.name}>
                {source.name}
              </span>
              <StatusBadge source={source} />
              {canWrite && (
                <span className="flex gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    disabled={busy}
                    aria-label={t('knowledge.sources.reindex', { name: source.name })}
                    title={t('knowledge.sources.reindex', { name: source.name })}
                    onClick={() => onReindex(source)}
                  >
                    <RefreshCwIcon aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('knowledge.sources.delete', { name: source.name })}
                    title={t('knowledge.sources.delete', { name: source.name })}
                    onClick={() => onDelete(source)}
                  >
                    <Trash2Icon aria-hidden />
                  </Button>
                </span>
              )}
            </div>
            {source.status === 'PROCESSING' && (
              <div
                className="h-1.5 overflow-hidden rounded bg-muted"
                role="progressbar"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={source.progress}
                aria-label={t('knowledge.sources.progress', { name: source.name })}
              >
                <div
                  className="h-full bg-primary transition-all"
                  style={{ width: `${source.progress}%` }}
                />
              </div>
            )}
            {source.status === 'COMPLETED' && (
              <p className="text-xs text-muted-foreground">
                {t('knowledge.sources.chunks', { count: source.chunkCount })}
              </p>
            )}
            {source.status === 'FAILED' && source.error && (
              <p className="text-xs text-destructive" data-testid="source-error">
                {source.error}
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
