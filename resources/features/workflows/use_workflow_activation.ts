import { useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { WorkflowDto, WorkflowSummaryDto } from '#shared/workflow/dto'
import { HttpError, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'

/**
 * The list's active switches: the switch moves at once and moves back with the server's
 * reason (for example "Publish the workflow before activating it") when it refuses.
 */
export function useWorkflowActivation() {
  const { t } = useTranslation()
  const [pending, setPending] = useState<Record<string, boolean>>({})

  const forget = (id: string) =>
    setPending((current) => {
      const rest = { ...current }
      delete rest[id]
      return rest
    })

  async function setActive(workflow: WorkflowSummaryDto, active: boolean) {
    setPending((current) => ({ ...current, [workflow.id]: active }))
    try {
      await jsonFetch<WorkflowDto>(
        `/api/v1/workflows/${workflow.id}/${active ? 'activate' : 'deactivate'}`,
        { method: 'POST' }
      )
      showToast(
        'success',
        t(active ? 'workflowList.active.activated' : 'workflowList.active.deactivated', {
          name: workflow.name,
        })
      )
      router.reload({ only: ['workflows'], onFinish: () => forget(workflow.id) })
    } catch (error) {
      forget(workflow.id)
      if (error instanceof HttpError) showToast('error', error.message, error.description)
      else showToast('error', t('common.errorTitle'), t('common.somethingWentWrong'))
    }
  }

  return {
    /** The switch's position: the pending choice while the server answers. */
    isActive: (workflow: WorkflowSummaryDto) => pending[workflow.id] ?? workflow.isActive,
    isPending: (workflow: WorkflowSummaryDto) => workflow.id in pending,
    setActive,
  }
}
