import { useState } from 'react'
import { Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  ArchiveIcon,
  CopyIcon,
  DownloadIcon,
  FolderInputIcon,
  MoreHorizontalIcon,
  PencilIcon,
  Trash2Icon,
} from 'lucide-react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { WorkspaceIcon } from '~/features/shell/workspace_icon'
import { formatDateTime, formatRelativeTime } from '~/lib/format'
import { cn } from '~/lib/utils'
import { RenameBotDialog } from './rename_bot_dialog'
import { MoveBotDialog } from './move_bot_dialog'
import { startBotDrag } from './use_bot_drag'
import { botStatus, type BotSummaryDto, type FolderDto } from './types'

const STATUS_VARIANT = {
  published: 'success',
  draft: 'secondary',
  closed: 'outline',
} as const

export interface BotActions {
  move: (bot: BotSummaryDto, folderId: string | null) => void
  archive: (bot: BotSummaryDto) => void
  remove: (bot: BotSummaryDto) => void
}

type OpenDialog = 'rename' | 'move' | 'delete' | null

/** A bot on the dashboard: icon, name, status and last update, with its actions menu. */
export function BotCard({
  bot,
  folders,
  readOnly,
  actions,
}: {
  bot: BotSummaryDto
  folders: FolderDto[]
  readOnly: boolean
  actions: BotActions
}) {
  const { t } = useTranslation()
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const [dragging, setDragging] = useState(false)
  const status = botStatus(bot)
  const setOpen = (which: OpenDialog) => (open: boolean) => setDialog(open ? which : null)

  return (
    <li
      data-testid="bot-card"
      data-bot-id={bot.id}
      data-status={status}
      draggable={!readOnly}
      onDragStart={(event) => {
        // Drags that start in a dialog (portalled, yet a React child) are not card drags.
        if (!event.currentTarget.contains(event.target as Node)) return
        startBotDrag(event, bot.id)
        setDragging(true)
      }}
      onDragEnd={() => setDragging(false)}
      aria-roledescription={readOnly ? undefined : t('bots.card.draggable')}
      className={cn(
        'group relative flex min-h-36 flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-xs transition-[box-shadow,opacity] hover:shadow-md',
        !readOnly && 'cursor-grab active:cursor-grabbing',
        dragging && 'opacity-50'
      )}
    >
      <div className="relative z-10 flex items-start justify-between gap-2">
        <WorkspaceIcon icon={bot.icon} name={bot.name} className="size-10 rounded-lg text-lg" />
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              className="-mt-1 -mr-1 text-muted-foreground"
              data-testid="bot-menu"
              aria-label={t('bots.card.menu', { name: bot.name })}
            >
              <MoreHorizontalIcon aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="min-w-44">
            {!readOnly && (
              <>
                <DropdownMenuItem data-testid="bot-rename" onSelect={() => setDialog('rename')}>
                  <PencilIcon aria-hidden />
                  {t('bots.card.rename')}
                </DropdownMenuItem>
                <DropdownMenuItem
                  data-testid="bot-duplicate"
                  onSelect={() =>
                    router.post(`/bots/${bot.id}/duplicate`, {}, { preserveScroll: true })
                  }
                >
                  <CopyIcon aria-hidden />
                  {t('bots.card.duplicate')}
                </DropdownMenuItem>
              </>
            )}
            <DropdownMenuItem asChild data-testid="bot-export">
              <a href={`/bots/${bot.id}/export`} download>
                <DownloadIcon aria-hidden />
                {t('bots.card.export')}
              </a>
            </DropdownMenuItem>
            {!readOnly && (
              <>
                <DropdownMenuItem data-testid="bot-move" onSelect={() => setDialog('move')}>
                  <FolderInputIcon aria-hidden />
                  {t('bots.card.move')}
                </DropdownMenuItem>
                <DropdownMenuItem data-testid="bot-archive" onSelect={() => actions.archive(bot)}>
                  <ArchiveIcon aria-hidden />
                  {t('bots.card.archive')}
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  variant="destructive"
                  data-testid="bot-delete"
                  onSelect={() => setDialog('delete')}
                >
                  <Trash2Icon aria-hidden />
                  {t('bots.card.delete')}
                </DropdownMenuItem>
              </>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <div className="mt-auto grid min-w-0 gap-1.5">
        <h3 className="truncate text-sm font-semibold" title={bot.name} data-testid="bot-name">
          {/* The stretched link makes the whole card open the editor; the menu stays on top. */}
          <Link
            href={`/bots/${bot.id}/edit`}
            className="rounded-sm after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="bot-open"
            draggable={false}
          >
            {bot.name}
          </Link>
        </h3>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Badge variant={STATUS_VARIANT[status]} data-testid="bot-status">
            {t(`bots.card.${status}`)}
          </Badge>
          <time
            dateTime={bot.updatedAt}
            title={formatDateTime(bot.updatedAt)}
            className="truncate text-xs text-muted-foreground"
          >
            {t('bots.card.updated', { time: formatRelativeTime(bot.updatedAt) })}
          </time>
        </div>
      </div>

      {!readOnly && (
        <>
          <RenameBotDialog bot={bot} open={dialog === 'rename'} onOpenChange={setOpen('rename')} />
          <MoveBotDialog
            bot={bot}
            folders={folders}
            open={dialog === 'move'}
            onOpenChange={setOpen('move')}
            onMove={(folderId) => actions.move(bot, folderId)}
          />
          <ConfirmDialog
            open={dialog === 'delete'}
            onOpenChange={setOpen('delete')}
            title={t('bots.delete.title', { name: bot.name })}
            description={t('bots.delete.description')}
            confirmLabel={t('bots.card.delete')}
            onConfirm={() => actions.remove(bot)}
          />
        </>
      )}
    </li>
  )
}
