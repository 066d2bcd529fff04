import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { FolderPlusIcon, LockIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'

/**
 * "New folder". Folders need the plan's workspaceWithFolder feature: without it the button
 * shows a lock and leads to the plans page instead of calling the server.
 */
export function NewFolderButton({
  canUseFolders,
  creating,
  onCreate,
}: {
  canUseFolders: boolean
  creating: boolean
  onCreate: () => void
}) {
  const { t } = useTranslation()
  if (canUseFolders) {
    return (
      <Button
        variant="outline"
        size="sm"
        data-testid="new-folder"
        onClick={onCreate}
        disabled={creating}
      >
        <FolderPlusIcon aria-hidden />
        {t('bots.folders.new')}
      </Button>
    )
  }
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button variant="outline" size="sm" asChild data-testid="new-folder" data-locked>
          <Link href="/bots/plans">
            <LockIcon aria-hidden />
            {t('bots.folders.new')}
          </Link>
        </Button>
      </TooltipTrigger>
      <TooltipContent data-testid="new-folder-locked">{t('bots.folders.locked')}</TooltipContent>
    </Tooltip>
  )
}
