import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CreditCardIcon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button'
import { WorkspaceSwitcher } from '~/features/shell/workspace_switcher'
import { usePageProps } from '~/hooks/use_shared_props'
import type { BillingTabDto } from '#shared/billing'
import { PastDueAlert } from '~/features/billing/subscription'

export default function PastDue({ billing = null }: { billing?: BillingTabDto | null }) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  return (
    <BareLayout>
      <Head title={t('workspaceState.pastDue.title')} />
      <Card className="w-full max-w-md">
        <CardHeader className="justify-items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-warning/15 text-warning">
            <CreditCardIcon aria-hidden className="size-6" />
          </span>
          <CardTitle className="text-xl">
            <h1>{t('workspaceState.pastDue.title')}</h1>
          </CardTitle>
          <CardDescription role="alert" data-testid="past-due-message">
            {t('workspaceState.pastDue.description', { workspace: currentWorkspace?.name ?? '' })}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {billing && <PastDueAlert billing={billing} />}
          <Link href="/bots/plans" className={buttonVariants()} data-testid="past-due-plans">
            {t('workspaceState.pastDue.viewPlans')}
          </Link>
          <Link href="/settings/account/billing" className={buttonVariants({ variant: 'outline' })}>
            {t('workspaceState.pastDue.billing')}
          </Link>
          <p className="pt-2 text-sm text-muted-foreground">
            {t('workspaceState.pastDue.switchHint')}
          </p>
          <WorkspaceSwitcher className="w-full border" />
        </CardContent>
      </Card>
    </BareLayout>
  )
}
