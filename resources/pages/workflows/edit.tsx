import { Head } from '@inertiajs/react'
import { PageEffects } from '~/components/page_effects'
import { WorkflowEditor } from '~/features/workflow_editor/workflow_editor'
import type { WorkflowPageProps } from '~/features/workflow_editor/types'

/** /workflows/:id: the workflow editor. */
export default function WorkflowEdit(props: WorkflowPageProps) {
  return (
    <>
      <PageEffects />
      <Head title={props.workflow.name} />
      <WorkflowEditor {...props} />
    </>
  )
}
