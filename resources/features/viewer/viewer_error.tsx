import { useTranslation } from 'react-i18next'
import { Ban, CircleAlert, Gauge, SearchX } from './icons'
import { Button } from '~/components/ui/button'

export type ViewerErrorKind = 'notFound' | 'closed' | 'limit' | 'failed'

const ICONS = { notFound: SearchX, closed: Ban, limit: Gauge, failed: CircleAlert }

/** Why the chat cannot start, in the visitor's language; the server's own text beneath. */
export function ViewerError({
  kind,
  message,
  onRetry,
}: {
  kind: ViewerErrorKind
  message?: string
  onRetry?: () => void
}) {
  const { t } = useTranslation()
  const Icon = ICONS[kind]
  const description = message ?? t(`viewer.errors.${kind}.description`)
  return (
    <div
      role="alert"
      data-testid="viewer-error"
      data-error-kind={kind}
      className="flex h-full w-full flex-col items-center justify-center gap-3 bg-background p-6 text-center text-foreground"
    >
      <Icon className="size-10 text-muted-foreground" aria-hidden />
      <h2 className="text-xl font-semibold">{t(`viewer.errors.${kind}.title`)}</h2>
      <p className="max-w-sm text-muted-foreground">{description}</p>
      {onRetry && (
        <Button variant="outline" onClick={onRetry}>
          {t('viewer.error.retry')}
        </Button>
      )}
    </div>
  )
}
