import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { AppLayout } from '~/features/shell/app_layout'
import { BotsDashboard } from '~/features/bots/bots_dashboard'
import type { DashboardProps } from '~/features/bots/types'

/** "My bots": the folders and bots of the current workspace, one folder level at a time. */
export default function BotsIndex(props: DashboardProps) {
  const { t } = useTranslation()
  return (
    <AppLayout>
      <Head title={props.currentFolder?.name ?? t('bots.title')} />
      <BotsDashboard {...props} />
    </AppLayout>
  )
}
