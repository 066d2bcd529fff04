import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { WorkflowRunsPageProps } from '#shared/workflow/dto'
import { AppLayout } from '~/features/shell/app_layout'
import { WorkflowRunsView } from '~/features/workflow_runs/runs_view'

/** /workflows/:id/runs: a workflow's runs, each node's input, output and logs. */
export default function WorkflowRuns(props: WorkflowRunsPageProps) {
  const { t } = useTranslation()
  return (
    <AppLayout>
      <Head title={t('workflowRuns.title', { name: props.workflow.name })} />
      <WorkflowRunsView {...props} />
    </AppLayout>
  )
}
