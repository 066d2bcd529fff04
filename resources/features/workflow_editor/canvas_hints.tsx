import { useTranslation } from 'react-i18next'
import { TriangleAlertIcon, WebhookIcon } from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import { Skeleton } from '~/components/ui/skeleton'
import { isTrigger } from './workflow_plugins'
import type { WorkflowEditorPlugin } from './types'

/** Shown while React Flow measures the nodes (they stay hidden until then). */
export function CanvasSkeleton() {
  return (
    <div
      data-testid="canvas-loading"
      aria-hidden
      className="pointer-events-none absolute inset-0 flex items-center justify-center gap-16"
    >
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-16 w-60 rounded-xl" />
      ))}
    </div>
  )
}

/** The empty state, and a note when the graph has no trigger or several. */
export function CanvasHints({
  blocks,
  plugins,
  readOnly,
}: {
  blocks: readonly WorkflowBlock[]
  plugins: ReadonlyMap<string, WorkflowEditorPlugin>
  readOnly: boolean
}) {
  const { t } = useTranslation()
  if (blocks.length === 0) {
    return (
      <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6">
        <div
          data-testid="canvas-empty"
          className="flex max-w-sm flex-col items-center gap-3 rounded-xl border border-dashed bg-background/90 px-6 py-8 text-center shadow-sm"
        >
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <WebhookIcon aria-hidden className="size-6" />
          </span>
          <h2 className="text-base font-semibold">{t('workflowEditor.canvas.emptyTitle')}</h2>
          <p className="text-sm text-muted-foreground">
            {readOnly
              ? t('workflowEditor.canvas.emptyReadOnly')
              : t('workflowEditor.canvas.emptyDescription')}
          </p>
        </div>
      </div>
    )
  }
  const triggers = blocks.filter(
    (block) => !block.isDisabled && isTrigger(plugins.get(block.type))
  ).length
  if (triggers === 1 || readOnly) return null
  return (
    <div className="pointer-events-none absolute top-3 left-1/2 z-10 -translate-x-1/2">
      <p
        role="status"
        data-testid="canvas-trigger-hint"
        className="flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs text-muted-foreground shadow-sm"
      >
        <TriangleAlertIcon aria-hidden className="size-3.5 text-amber-500" />
        {triggers === 0
          ? t('workflowEditor.canvas.noTrigger')
          : t('workflowEditor.canvas.manyTriggers')}
      </p>
    </div>
  )
}
