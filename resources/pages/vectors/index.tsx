import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { DatabaseIcon } from 'lucide-react'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { usePageProps } from '~/hooks/use_shared_props'

export default function VectorsIndex() {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  return (
    <AppLayout>
      <Head title={t('vectors.title')} />
      <PageHeader title={t('vectors.title')} description={t('vectors.description')} />
      <div className="p-6">
        <EmptyState
          icon={DatabaseIcon}
          title={t('vectors.emptyTitle')}
          description={t('vectors.emptyDescription', { workspace: currentWorkspace?.name ?? '' })}
          testId="vectors-empty"
        />
      </div>
    </AppLayout>
  )
}
