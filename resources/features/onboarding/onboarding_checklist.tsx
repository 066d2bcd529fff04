import { useEffect, useState } from 'react'
import { Link, router, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckCircle2Icon, ChevronDownIcon, CircleIcon, ListChecksIcon, XIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'
import { usePageProps } from '~/hooks/use_shared_props'
import type { OnboardingChecklistDto } from '#shared/onboarding'
import { pathOf } from './tours'

/** Editor-like pages own the viewport (the checklist is hidden on the edit page). */
const EDIT_PAGE = /\/(edit|theme|settings|results|analytics)$/

/**
 * The getting-started checklist (docs/onboarding.md): what a new workspace has done, read
 * from its data on each page, folded into a small button until opened; dismissed for good.
 */
export function OnboardingChecklist() {
  const { t } = useTranslation()
  const { url } = usePage()
  const { user, currentWorkspace } = usePageProps()
  const path = pathOf(url)
  const hidden = !user || user.onboardingChecklistDismissed || EDIT_PAGE.test(path)
  const [open, setOpen] = useState(false)
  const [dismissed, setDismissed] = useState(false)
  const [data, setData] = useState<OnboardingChecklistDto | null>(null)
  const [failed, setFailed] = useState(false)

  // Read again on each page: the step just done there shows as done.
  useEffect(() => {
    if (hidden) return
    const controller = new AbortController()
    jsonFetch<OnboardingChecklistDto>('/api/onboarding/checklist', { signal: controller.signal })
      .then((answer) => {
        setData(answer)
        setFailed(false)
      })
      .catch((error: Error) => {
        if (error.name !== 'AbortError') setFailed(true)
      })
    return () => controller.abort()
  }, [hidden, url, currentWorkspace?.id])

  if (hidden || dismissed) return null

  async function dismiss() {
    setDismissed(true)
    try {
      await jsonFetch('/api/onboarding/checklist/dismiss', { method: 'POST' })
      router.reload({ only: ['user'] })
    } catch (error) {
      setDismissed(false)
      showToast('error', t('onboarding.checklist.dismissError'), (error as Error).message)
    }
  }

  const progress = data
    ? t('onboarding.checklist.progress', { completed: data.completed, total: data.total })
    : ''
  const ratio = data && data.total ? data.completed / data.total : 0

  return (
    <section
      aria-label={t('onboarding.checklist.label')}
      data-testid="onboarding-checklist"
      className="fixed bottom-4 left-4 z-20 md:left-64"
    >
      {!open ? (
        <Button
          variant="outline"
          size="sm"
          className="rounded-full bg-background shadow-md"
          data-testid="checklist-open"
          aria-expanded={false}
          aria-label={t('onboarding.checklist.open')}
          onClick={() => setOpen(true)}
        >
          <ListChecksIcon aria-hidden />
          {t('onboarding.checklist.title')}
          {data ? (
            <span className="text-xs text-muted-foreground" data-testid="checklist-count">
              {data.completed}/{data.total}
            </span>
          ) : (
            <Skeleton className="h-3 w-6" />
          )}
        </Button>
      ) : (
        <div className="w-72 max-w-[calc(100vw-2rem)] rounded-xl border bg-card p-4 text-card-foreground shadow-lg">
          <div className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <h2 className="text-sm font-semibold">{t('onboarding.checklist.title')}</h2>
              <p className="text-xs text-muted-foreground" data-testid="checklist-progress">
                {failed ? t('onboarding.checklist.loadError') : progress}
              </p>
            </div>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={t('onboarding.checklist.collapse')}
              aria-expanded
              data-testid="checklist-collapse"
              onClick={() => setOpen(false)}
            >
              <ChevronDownIcon aria-hidden />
            </Button>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={t('onboarding.checklist.dismiss')}
              data-testid="checklist-dismiss"
              onClick={dismiss}
            >
              <XIcon aria-hidden />
            </Button>
          </div>
          <div
            className="mt-3 h-1.5 overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={data?.total ?? 0}
            aria-valuenow={data?.completed ?? 0}
            aria-label={progress}
          >
            <div
              className="h-full rounded-full bg-primary transition-[width]"
              style={{ width: `${Math.round(ratio * 100)}%` }}
            />
          </div>
          {data ? (
            <ul className="mt-3 grid gap-1" data-testid="checklist-items">
              {data.items.map((item) => (
                <li key={item.id}>
                  <Link
                    href={item.href}
                    data-testid={`checklist-item-${item.id}`}
                    data-done={item.done || undefined}
                    className={cn(
                      'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
                      item.done && 'text-muted-foreground line-through'
                    )}
                  >
                    {item.done ? (
                      <CheckCircle2Icon aria-hidden className="size-4 text-success" />
                    ) : (
                      <CircleIcon aria-hidden className="size-4 text-muted-foreground" />
                    )}
                    {t(`onboarding.checklist.items.${item.id}`)}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            !failed && (
              <div className="mt-3 grid gap-2" aria-busy>
                {[0, 1, 2, 3].map((i) => (
                  <Skeleton key={i} className="h-6 w-full" />
                ))}
              </div>
            )
          )}
          {data && data.completed === data.total && (
            <p className="mt-3 text-sm font-medium" data-testid="checklist-all-done">
              {t('onboarding.checklist.allDone')}
            </p>
          )}
        </div>
      )}
    </section>
  )
}
