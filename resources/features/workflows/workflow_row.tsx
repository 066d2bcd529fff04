import { useState } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  ArchiveIcon,
  CopyIcon,
  DownloadIcon,
  MoreHorizontalIcon,
  PencilIcon,
  Trash2Icon,
  WorkflowIcon,
  ListChecksIcon,
} from 'lucide-react'
import type { WorkflowSummaryDto } from '#shared/workflow/dto'
import type { WorkflowStatus } from '#shared/workflow/types'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Switch } from '~/components/ui/switch'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { formatDateTime, formatRelativeTime } from '~/lib/format'

const STATUS_VARIANT: Record<WorkflowStatus, 'success' | 'secondary' | 'outline'> = {
  PUBLISHED: 'success',
  DRAFT: 'secondary',
  DISABLED: 'outline',
}

export interface WorkflowRowActions {
  setActive: (workflow: WorkflowSummaryDto, active: boolean) => void
  duplicate: (workflow: WorkflowSummaryDto) => void
  archive: (workflow: WorkflowSummaryDto) => void
  remove: (workflow: WorkflowSummaryDto) => void
}

/** One workflow of the list: name, status, active switch, last run, last change, actions. */
export function WorkflowRow({
  workflow,
  active,
  switching,
  readOnly,
  actions,
}: {
  workflow: WorkflowSummaryDto
  /** The switch's position (a pending choice while the server answers). */
  active: boolean
  switching: boolean
  readOnly: boolean
  actions: WorkflowRowActions
}) {
  const { t } = useTranslation()
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const switchId = `workflow-active-${workflow.id}`

  return (
    <tr
      data-testid="workflow-row"
      data-workflow-id={workflow.id}
      data-status={workflow.status}
      className="border-b transition-colors last:border-b-0 hover:bg-muted/40"
    >
      <td className="max-w-0 py-3 pr-3 pl-4">
        <div className="flex min-w-0 items-center gap-3">
          <span
            aria-hidden
            className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-lg text-primary"
          >
            {workflow.icon ? workflow.icon : <WorkflowIcon className="size-4" />}
          </span>
          <div className="min-w-0">
            <Link
              href={`/workflows/${workflow.id}`}
              className="block truncate rounded-sm text-sm font-medium hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              data-testid="workflow-open"
              title={workflow.name}
            >
              {workflow.name}
            </Link>
            {workflow.description && (
              <p className="truncate text-xs text-muted-foreground" title={workflow.description}>
                {workflow.description}
              </p>
            )}
          </div>
        </div>
      </td>
      <td className="px-3 py-3">
        <Badge
          variant={STATUS_VARIANT[workflow.status]}
          data-testid="workflow-status"
          title={
            workflow.status === 'DRAFT' && workflow.publishedAt ? t('workflowLive.note') : undefined
          }
        >
          {workflow.status === 'DRAFT' && workflow.publishedAt
            ? t('workflowLive.unpublishedChanges')
            : t(`workflowList.status.${workflow.status}`)}
        </Badge>
      </td>
      <td className="px-3 py-3">
        <Switch
          id={switchId}
          checked={active}
          disabled={readOnly || switching}
          onCheckedChange={(checked) => actions.setActive(workflow, checked)}
          aria-label={t('workflowList.active.label', { name: workflow.name })}
          data-testid="workflow-active"
        />
      </td>
      <td className="hidden px-3 py-3 text-sm text-muted-foreground md:table-cell">
        {workflow.lastRunAt ? (
          <Link
            href={`/workflows/${workflow.id}/runs`}
            data-testid="workflow-last-run"
            aria-label={t('workflowRuns.openLabel', { name: workflow.name })}
            className="rounded hover:underline focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none"
          >
            <time dateTime={workflow.lastRunAt} title={formatDateTime(workflow.lastRunAt)}>
              {formatRelativeTime(workflow.lastRunAt)}
            </time>
          </Link>
        ) : (
          <span aria-label={t('workflowList.columns.neverRun')}>—</span>
        )}
      </td>
      <td className="hidden px-3 py-3 text-sm whitespace-nowrap text-muted-foreground sm:table-cell">
        <time dateTime={workflow.updatedAt} title={formatDateTime(workflow.updatedAt)}>
          {formatRelativeTime(workflow.updatedAt)}
        </time>
      </td>
      <td className="py-3 pr-4 pl-3 text-right">
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              className="text-muted-foreground"
              data-testid="workflow-menu"
              aria-label={t('workflowList.menu.label', { name: workflow.name })}
            >
              <MoreHorizontalIcon aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="min-w-44">
            <DropdownMenuItem asChild>
              <Link href={`/workflows/${workflow.id}`}>
                <PencilIcon aria-hidden />
                {readOnly ? t('workflowList.menu.view') : t('workflowList.menu.edit')}
              </Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild data-testid="workflow-runs">
              <Link href={`/workflows/${workflow.id}/runs`}>
                <ListChecksIcon aria-hidden />
                {t('workflowRuns.open')}
              </Link>
            </DropdownMenuItem>
            {!readOnly && (
              <DropdownMenuItem
                data-testid="workflow-duplicate"
                onSelect={() => actions.duplicate(workflow)}
              >
                <CopyIcon aria-hidden />
                {t('workflowList.menu.duplicate')}
              </DropdownMenuItem>
            )}
            <DropdownMenuItem asChild data-testid="workflow-export">
              <a href={`/workflows/${workflow.id}/export`} download>
                <DownloadIcon aria-hidden />
                {t('workflowList.menu.export')}
              </a>
            </DropdownMenuItem>
            {!readOnly && (
              <>
                <DropdownMenuItem
                  data-testid="workflow-archive"
                  onSelect={() => actions.archive(workflow)}
                >
                  <ArchiveIcon aria-hidden />
                  {t('workflowList.menu.archive')}
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  variant="destructive"
                  data-testid="workflow-delete"
                  onSelect={() => setConfirmingDelete(true)}
                >
                  <Trash2Icon aria-hidden />
                  {t('workflowList.menu.delete')}
                </DropdownMenuItem>
              </>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
        {!readOnly && (
          <ConfirmDialog
            open={confirmingDelete}
            onOpenChange={setConfirmingDelete}
            title={t('workflowList.delete.title', { name: workflow.name })}
            description={t('workflowList.delete.description')}
            confirmLabel={t('workflowList.menu.delete')}
            onConfirm={() => actions.remove(workflow)}
          />
        )}
      </td>
    </tr>
  )
}

/** Rows shown while the list loads (a search on its way). */
export function WorkflowRowSkeleton() {
  return (
    <tr aria-hidden className="border-b last:border-b-0">
      <td className="py-3 pr-3 pl-4">
        <div className="flex items-center gap-3">
          <Skeleton className="size-9 rounded-md" />
          <Skeleton className="h-4 w-40 rounded" />
        </div>
      </td>
      <td className="px-3 py-3">
        <Skeleton className="h-5 w-20 rounded-md" />
      </td>
      <td className="px-3 py-3">
        <Skeleton className="h-5 w-9 rounded-full" />
      </td>
      <td className="hidden px-3 py-3 md:table-cell">
        <Skeleton className="h-4 w-8 rounded" />
      </td>
      <td className="hidden px-3 py-3 sm:table-cell">
        <Skeleton className="h-4 w-24 rounded" />
      </td>
      <td className="py-3 pr-4 pl-3" />
    </tr>
  )
}
