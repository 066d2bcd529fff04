import { useId, useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, ChevronsUpDownIcon, LockIcon, PlusIcon } from 'lucide-react'
import { PLAN_LABELS } from '#shared/plans'
import { usePageProps } from '~/hooks/use_shared_props'
import { PlanLimitReason, usePlanLimit } from '~/features/plans/plan_limit'
import { cn } from '~/lib/utils'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { WorkspaceIcon } from './workspace_icon'
import { NewWorkspaceDialog } from './new_workspace_dialog'

export function switchWorkspace(id: string) {
  try {
    localStorage.setItem('currentWorkspaceId', id)
  } catch {}
  router.post(`/workspaces/${id}/switch`)
}

/** The current workspace (name, icon, plan) and the list to switch to, plus "New workspace". */
export function WorkspaceSwitcher({
  compact = false,
  className,
}: {
  compact?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  const { workspaces, currentWorkspace } = usePageProps()
  const [creating, setCreating] = useState(false)
  const workspaceLimit = usePlanLimit('multipleWorkspace')
  const limitId = useId()

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          data-testid="workspace-switcher"
          data-tour="workspace-switcher"
          className={cn(
            'flex min-w-0 items-center gap-2 rounded-md p-1.5 text-left text-sm outline-none hover:bg-sidebar-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=open]:bg-sidebar-accent',
            className
          )}
        >
          {/* Named by what it shows, after what it does (WCAG 2.5.3, label in name). */}
          <span className="sr-only">{`${t('workspace.switcher.label')}: `}</span>
          {currentWorkspace ? (
            <>
              <WorkspaceIcon icon={currentWorkspace.icon} name={currentWorkspace.name} />
              <span className={cn('min-w-0 flex-1', compact && 'hidden sm:block')}>
                <span className="block truncate font-medium" data-testid="current-workspace-name">
                  {currentWorkspace.name}
                </span>
                <span className="block truncate text-xs text-muted-foreground">
                  {PLAN_LABELS[currentWorkspace.plan] ?? currentWorkspace.plan}
                </span>
              </span>
            </>
          ) : (
            <span className="flex-1 truncate text-muted-foreground">
              {t('workspace.switcher.none')}
            </span>
          )}
          <ChevronsUpDownIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-64">
          <DropdownMenuLabel>{t('workspace.switcher.heading')}</DropdownMenuLabel>
          {workspaces.map((workspace) => {
            const current = workspace.id === currentWorkspace?.id
            return (
              <DropdownMenuItem
                key={workspace.id}
                data-testid="workspace-option"
                data-workspace-id={workspace.id}
                aria-current={current ? 'true' : undefined}
                onSelect={() => {
                  if (!current) switchWorkspace(workspace.id)
                }}
              >
                <WorkspaceIcon
                  icon={workspace.icon}
                  name={workspace.name}
                  className="size-6 text-xs"
                />
                <span className="min-w-0 flex-1">
                  <span className="block truncate">{workspace.name}</span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {PLAN_LABELS[workspace.plan] ?? workspace.plan}
                  </span>
                </span>
                {current && <CheckIcon aria-hidden className="size-4" />}
              </DropdownMenuItem>
            )
          })}
          <DropdownMenuSeparator />
          <DropdownMenuItem
            data-testid="new-workspace"
            disabled={!!workspaceLimit}
            aria-describedby={workspaceLimit ? limitId : undefined}
            onSelect={() => setCreating(true)}
          >
            {workspaceLimit ? <LockIcon aria-hidden /> : <PlusIcon aria-hidden />}
            {t('workspace.new.menuItem')}
          </DropdownMenuItem>
          {workspaceLimit && (
            <PlanLimitReason
              id={limitId}
              reason={workspaceLimit}
              limitKey="multipleWorkspace"
              className="px-2 pb-1.5"
            />
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </>
  )
}
