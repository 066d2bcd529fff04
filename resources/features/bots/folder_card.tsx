import { useEffect, useRef, useState } from 'react'
import { Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  FolderIcon,
  FolderOpenIcon,
  LockIcon,
  MoreHorizontalIcon,
  PencilIcon,
  Trash2Icon,
  UsersIcon,
} from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { cn } from '~/lib/utils'
import { useBotDropTarget } from './use_bot_drag'
import { ShareFolderDialog } from './share_folder_dialog'
import { folderHref, type FolderDto } from './types'

/** A folder on the dashboard: opens on click, takes dropped bots, renames in place. */
export function FolderCard({
  folder,
  readOnly: workspaceReadOnly,
  canShareFolders,
  renaming,
  onRenamingChange,
  onDropBot,
}: {
  folder: FolderDto
  readOnly: boolean
  canShareFolders: boolean
  renaming: boolean
  onRenamingChange: (renaming: boolean) => void
  onDropBot: (botId: string, folder: FolderDto) => void
}) {
  const { t } = useTranslation()
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [sharing, setSharing] = useState(false)
  // A folder shared with the viewer for viewing only changes nothing (docs/folder_sharing.md).
  const readOnly = workspaceReadOnly || folder.access === 'view'
  const [name, setName] = useState(folder.name)
  const inputRef = useRef<HTMLInputElement>(null)
  const renameChosen = useRef(false)
  const { over, dropProps } = useBotDropTarget((botId) => onDropBot(botId, folder), readOnly)

  useEffect(() => {
    if (!renaming) return
    setName(folder.name)
    // After the menu has handed focus back to its trigger.
    const timer = setTimeout(() => inputRef.current?.select(), 0)
    return () => clearTimeout(timer)
  }, [renaming, folder.name])

  function save() {
    onRenamingChange(false)
    const next = name.trim()
    // A blank name, or the same one, changes nothing.
    if (!next || next === folder.name) return
    router.patch(
      `/folders/${folder.id}`,
      { name: next },
      { preserveScroll: true, preserveState: true }
    )
  }

  const Icon = over ? FolderOpenIcon : FolderIcon

  return (
    <li
      data-testid="folder-card"
      data-folder-id={folder.id}
      data-drop-target={over || undefined}
      {...dropProps}
      className={cn(
        'group relative flex items-center gap-3 rounded-xl border bg-card px-4 py-3 text-card-foreground shadow-xs transition-[box-shadow,border-color,background-color] focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md',
        over && 'border-primary bg-primary/10 ring-2 ring-primary/40'
      )}
    >
      <Icon
        aria-hidden
        className={cn('size-5 shrink-0 text-muted-foreground', over && 'text-primary')}
      />
      {renaming ? (
        <form
          className="min-w-0 flex-1"
          onSubmit={(event) => {
            event.preventDefault()
            save()
          }}
        >
          <Input
            ref={inputRef}
            data-testid="folder-name-input"
            aria-label={t('bots.folders.nameLabel')}
            value={name}
            maxLength={255}
            onChange={(e) => setName(e.target.value)}
            onBlur={save}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault()
                setName(folder.name)
                onRenamingChange(false)
              }
            }}
            className="h-8"
          />
        </form>
      ) : (
        <Link
          href={folderHref(folder.id)}
          data-testid="folder-open"
          className="min-w-0 flex-1 truncate text-sm font-medium outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
          title={folder.name}
        >
          {folder.name}
        </Link>
      )}
      {folder.isRestricted && (
        <UsersIcon
          aria-label={t('bots.share.restrictedBadge')}
          data-testid="folder-restricted"
          className="size-4 shrink-0 text-muted-foreground"
        />
      )}
      {over && (
        <span className="pointer-events-none text-xs font-medium text-primary">
          {t('bots.folders.dropHere')}
        </span>
      )}
      {!readOnly && !renaming && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              className="relative z-10 -mr-2 text-muted-foreground"
              data-testid="folder-menu"
              aria-label={t('bots.folders.menu', { name: folder.name })}
            >
              <MoreHorizontalIcon aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            align="end"
            className="min-w-40"
            onCloseAutoFocus={(event) => {
              // After "Rename", focus goes to the name field, not back to the menu button.
              if (renameChosen.current) event.preventDefault()
              renameChosen.current = false
            }}
          >
            <DropdownMenuItem
              data-testid="folder-rename"
              onSelect={() => {
                renameChosen.current = true
                onRenamingChange(true)
              }}
            >
              <PencilIcon aria-hidden />
              {t('bots.folders.rename')}
            </DropdownMenuItem>
            {folder.canShare && (
              <DropdownMenuItem
                data-testid="folder-share"
                data-locked={!canShareFolders || undefined}
                onSelect={() => setSharing(true)}
              >
                {canShareFolders ? <UsersIcon aria-hidden /> : <LockIcon aria-hidden />}
                {t('bots.share.action')}
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem
              variant="destructive"
              data-testid="folder-delete"
              onSelect={() => setConfirmDelete(true)}
            >
              <Trash2Icon aria-hidden />
              {t('bots.folders.delete')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      )}
      {folder.canShare && (
        <ShareFolderDialog
          folder={folder}
          canShareFolders={canShareFolders}
          open={sharing}
          onOpenChange={setSharing}
        />
      )}
      {!readOnly && (
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title={t('bots.folders.deleteTitle', { name: folder.name })}
          description={t('bots.folders.deleteDescription')}
          confirmLabel={t('bots.folders.delete')}
          onConfirm={() => router.delete(`/folders/${folder.id}`, { preserveScroll: true })}
        />
      )}
    </li>
  )
}
