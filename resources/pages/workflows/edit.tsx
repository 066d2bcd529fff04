import { lazy, Suspense } from 'react'
import { Head } from '@inertiajs/react'
import { PageEffects } from '~/components/page_effects'
import type { WorkflowPageProps } from '~/features/workflow_editor/types'

/*
 * The editor is its own chunk, loaded by this page, as the bot editor's is
 * (pages/bots/edit.tsx): its node settings panel loads lazily and imports the editor's
 * store, and a page chunk sharing code with chunks it loads loses its Vite manifest entry.
 */
const WorkflowEditor = lazy(() =>
  import('~/features/workflow_editor/workflow_editor').then((m) => ({
    default: m.WorkflowEditor,
  }))
)

/** /workflows/:id: the workflow editor. */
export default function WorkflowEdit(props: WorkflowPageProps) {
  return (
    <>
      <PageEffects />
      <Head title={props.workflow.name} />
      <Suspense fallback={<div className="h-dvh bg-background" />}>
        <WorkflowEditor {...props} />
      </Suspense>
    </>
  )
}
