import { useTranslation } from 'react-i18next'
import { CheckIcon, FolderIcon, LayoutGridIcon } from 'lucide-react'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { cn } from '~/lib/utils'
import { folderTree, type BotSummaryDto, type FolderDto } from './types'

function Target({
  label,
  icon: Icon,
  depth = 0,
  current,
  folderId,
  onPick,
}: {
  label: string
  icon: typeof FolderIcon
  depth?: number
  current: boolean
  folderId: string | null
  onPick: () => void
}) {
  const { t } = useTranslation()
  return (
    <li>
      <button
        type="button"
        data-testid="move-target"
        data-folder-id={folderId ?? ''}
        aria-current={current || undefined}
        disabled={current}
        onClick={onPick}
        style={{ paddingLeft: `${0.75 + depth * 1.25}rem` }}
        className={cn(
          'flex w-full items-center gap-2 rounded-md py-2 pr-3 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-default disabled:hover:bg-transparent',
          current && 'font-medium'
        )}
      >
        <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <span className="min-w-0 flex-1 truncate">{label}</span>
        {current && (
          <span className="flex items-center gap-1 text-xs text-muted-foreground">
            <CheckIcon aria-hidden className="size-3.5" />
            {t('bots.move.current')}
          </span>
        )}
      </button>
    </li>
  )
}

/** "Move to folder": every folder of the workspace, plus the dashboard itself. */
export function MoveBotDialog({
  bot,
  folders,
  open,
  onOpenChange,
  onMove,
}: {
  bot: BotSummaryDto
  folders: FolderDto[]
  open: boolean
  onOpenChange: (open: boolean) => void
  onMove: (folderId: string | null) => void
}) {
  const { t } = useTranslation()
  const pick = (folderId: string | null) => {
    onOpenChange(false)
    onMove(folderId)
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="move-bot-dialog">
        <DialogHeader>
          <DialogTitle>{t('bots.move.title', { name: bot.name })}</DialogTitle>
          <DialogDescription>{t('bots.move.description')}</DialogDescription>
        </DialogHeader>
        <ul className="-mx-2 grid max-h-80 gap-0.5 overflow-y-auto px-2">
          <Target
            label={t('bots.move.root')}
            icon={LayoutGridIcon}
            folderId={null}
            current={bot.folderId === null}
            onPick={() => pick(null)}
          />
          {folderTree(folders).map(({ folder, depth }) => (
            <Target
              key={folder.id}
              label={folder.name}
              icon={FolderIcon}
              depth={depth + 1}
              folderId={folder.id}
              current={bot.folderId === folder.id}
              onPick={() => pick(folder.id)}
            />
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  )
}
