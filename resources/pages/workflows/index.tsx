import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { WorkflowListPageProps } from '#shared/workflow/dto'
import { AppLayout } from '~/features/shell/app_layout'
import { WorkflowsList } from '~/features/workflows/workflows_list'

/** /workflows: the workflows of the current workspace. */
export default function WorkflowsIndex(props: WorkflowListPageProps) {
  const { t } = useTranslation()
  return (
    <AppLayout>
      <Head title={t('workflows.title')} />
      <WorkflowsList {...props} />
    </AppLayout>
  )
}
