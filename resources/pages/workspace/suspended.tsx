import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BanIcon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { WorkspaceSwitcher } from '~/features/shell/workspace_switcher'
import { UserMenu } from '~/features/shell/user_menu'
import { usePageProps } from '~/hooks/use_shared_props'

export default function Suspended() {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  return (
    <BareLayout>
      <Head title={t('workspaceState.suspended.title')} />
      <Card className="w-full max-w-md">
        <CardHeader className="justify-items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <BanIcon aria-hidden className="size-6" />
          </span>
          <CardTitle className="text-xl">
            <h1>{t('workspaceState.suspended.title')}</h1>
          </CardTitle>
          <CardDescription>
            {t('workspaceState.suspended.description', { workspace: currentWorkspace?.name ?? '' })}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <p className="text-sm text-muted-foreground">
            {t('workspaceState.suspended.switchHint')}
          </p>
          <WorkspaceSwitcher className="w-full border" />
          <div className="flex justify-end">
            <UserMenu />
          </div>
        </CardContent>
      </Card>
    </BareLayout>
  )
}
