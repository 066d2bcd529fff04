import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { WorkflowIcon } from 'lucide-react'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { usePageProps } from '~/hooks/use_shared_props'

export default function WorkflowsIndex() {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  return (
    <AppLayout>
      <Head title={t('workflows.title')} />
      <PageHeader title={t('workflows.title')} description={t('workflows.description')} />
      <div className="p-6">
        <EmptyState
          icon={WorkflowIcon}
          title={t('workflows.emptyTitle')}
          description={t('workflows.emptyDescription', { workspace: currentWorkspace?.name ?? '' })}
          testId="workflows-empty"
        />
      </div>
    </AppLayout>
  )
}
