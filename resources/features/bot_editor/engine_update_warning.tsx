import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TriangleAlert, X } from 'lucide-react'
import { Button } from '~/components/ui/button'

/**
 * Shown when the bot is stored in an engine version older than 6: it was migrated when the
 * editor opened it, and saving (autosave included) stores the migrated version. Dismissed
 * for this visit only: the next visit shows it again until the bot has been saved once.
 */
export function EngineUpdateWarning({ storedVersion }: { storedVersion: string }) {
  const { t } = useTranslation()
  const [dismissed, setDismissed] = useState(false)
  if (dismissed) return null
  return (
    <div
      role="status"
      data-testid="engine-update-warning"
      className="flex items-start gap-3 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="grid flex-1 gap-0.5">
        <p className="font-medium">{t('engineUpdate.title', { version: storedVersion })}</p>
        <p>{t('engineUpdate.description')}</p>
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon-sm"
        onClick={() => setDismissed(true)}
        aria-label={t('engineUpdate.dismiss')}
        data-testid="engine-update-dismiss"
      >
        <X aria-hidden />
      </Button>
    </div>
  )
}
