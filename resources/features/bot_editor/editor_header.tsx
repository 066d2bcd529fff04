import { useEffect, useMemo, useRef, useState } from 'react'
import { Link, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import i18n from 'i18next'
import {
  BookOpenIcon,
  ChevronDownIcon,
  DownloadIcon,
  EllipsisVerticalIcon,
  HistoryIcon,
  LockIcon,
  LockOpenIcon,
  SettingsIcon,
} from 'lucide-react'
import type { GraphNavigation } from '#shared/workspace_roles'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { RadioGroup, RadioGroupItem } from '~/components/ui/radio_group'
import { Label } from '~/components/ui/label'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'
import {
  hasUnpublishedChanges,
  selectSaveStatus,
  useBotEditor,
  useBotEditorApi,
} from './bot_editor_store'
import { HeaderMenu } from '~/features/canvas/header_menu'
import { CoeditPeers } from '~/features/editor_shell/coedit_ui'
import { BotHistory } from './bot_history'
import { SharePopover } from './share_popover'
import { PreviewButton } from './editor_preview'
import { HelpMenu } from '~/features/onboarding/help_menu'
import {
  BackToList,
  EditableName,
  SaveStatus,
  UndoRedo,
} from '~/features/editor_shell/header_controls'
import type { BotSaveResponse, EditorTab } from './types'

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

/** "5 minutes ago" in seconds, minutes, hours, days, months or years. */
export function timeSince(iso: string, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))
  const [unit, size] = UNITS.find(([, length]) => seconds >= length) ?? UNITS[UNITS.length - 1]
  return new Intl.RelativeTimeFormat(i18n.language || 'en', { numeric: 'always' }).format(
    -Math.floor(seconds / size),
    unit
  )
}

const TABS: { tab: EditorTab; path: string; labelKey: string }[] = [
  { tab: 'edit', path: 'edit', labelKey: 'editor.tabs.flow' },
  { tab: 'theme', path: 'theme', labelKey: 'editor.tabs.theme' },
  { tab: 'settings', path: 'settings', labelKey: 'editor.tabs.settings' },
  { tab: 'results', path: 'results', labelKey: 'results.tab' },
]

const iconButton = 'size-8'

export function EditorHeader({
  tab,
  graphNavigation,
  onGraphNavigationChange,
}: {
  tab: EditorTab
  graphNavigation: GraphNavigation
  onGraphNavigationChange: (value: GraphNavigation) => void
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const readOnly = useBotEditor((state) => state.readOnly)
  const status = useBotEditor(selectSaveStatus)
  // Results are for workspace members: guests of a shared flow do not see the tab.
  const pageProps = usePage<{ currentUserMode?: string; docsUrl?: string }>().props
  const isGuest = pageProps.currentUserMode === 'guest'
  const docsUrl = pageProps.docsUrl || '/docs'
  const [settingsOpen, setSettingsOpen] = useState(false)

  return (
    <header className="relative flex h-14 shrink-0 items-center gap-2 border-b bg-background px-3">
      <BackToList surface="bot" />
      <EditableName surface="bot" store={api} />
      {!readOnly && <UndoRedo surface="bot" store={api} />}

      <HeaderMenu>
        <nav
          aria-label={t('editor.tabs.label')}
          data-tour="editor-tabs"
          className="flex flex-wrap items-center gap-1 md:mx-auto md:flex-nowrap"
        >
          {TABS.filter((entry) => entry.tab !== 'results' || !isGuest).map((entry) => (
            <Link
              key={entry.tab}
              href={`/bots/${botId}/${entry.path}`}
              data-testid={`editor-tab-${entry.tab === 'edit' ? 'flow' : entry.tab}`}
              aria-current={tab === entry.tab ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50',
                tab === entry.tab ? 'bg-muted text-foreground' : 'text-muted-foreground'
              )}
            >
              {t(entry.labelKey)}
            </Link>
          ))}
        </nav>

        <div className="flex flex-wrap items-center gap-2 md:contents">
          <CoeditPeers />
          {!readOnly && <SaveStatus surface="bot" status={status} />}

          {!isGuest && <BotHistory />}
          <HelpMenu compact />
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className={iconButton}
                aria-label={t('editor.graphMenu')}
                data-testid="graph-menu"
              >
                <EllipsisVerticalIcon />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {!readOnly && (
                <DropdownMenuItem asChild>
                  <a href={`/bots/${botId}/export`} download data-testid="export-flow">
                    <DownloadIcon /> {t('editor.exportFlow')}
                  </a>
                </DropdownMenuItem>
              )}
              <DropdownMenuItem
                onSelect={() => setSettingsOpen(true)}
                data-testid="editor-settings"
              >
                <SettingsIcon /> {t('editor.editorSettings.title')}
              </DropdownMenuItem>
              <DropdownMenuItem asChild>
                <a href={docsUrl} target="_blank" rel="noreferrer" data-testid="graph-menu-docs">
                  <BookOpenIcon /> {t('docs.title')}
                </a>
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>

          {!isGuest && <PreviewButton />}
          {!readOnly && <SharePopover />}
          {!readOnly && <PublishControls />}
        </div>
      </HeaderMenu>

      <Dialog open={settingsOpen} onOpenChange={setSettingsOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('editor.editorSettings.title')}</DialogTitle>
            <DialogDescription>{t('editor.editorSettings.navigation')}</DialogDescription>
          </DialogHeader>
          <RadioGroup
            value={graphNavigation}
            onValueChange={(value) => onGraphNavigationChange(value as GraphNavigation)}
            data-testid="graph-navigation"
          >
            {(['mouse', 'trackpad'] as const).map((option) => (
              <div key={option} className="flex items-start gap-3">
                <RadioGroupItem value={option} id={`graph-navigation-${option}`} />
                <Label htmlFor={`graph-navigation-${option}`} className="grid gap-1">
                  <span>{t(`editor.editorSettings.${option}`)}</span>
                  <span className="font-normal text-muted-foreground">
                    {t(`editor.editorSettings.${option}Hint`)}
                  </span>
                </Label>
              </div>
            ))}
          </RadioGroup>
        </DialogContent>
      </Dialog>
    </header>
  )
}

function PublishControls() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const present = useBotEditor((state) => state.history.present)
  const published = useBotEditor((state) => state.published)
  const isClosed = useBotEditor((state) => !!state.history.present.isClosed)
  const [busy, setBusy] = useState(false)
  const [restoreOpen, setRestoreOpen] = useState(false)
  const menuTriggerRef = useRef<HTMLButtonElement>(null)
  const [, setTick] = useState(0)
  const changed = useMemo(() => hasUnpublishedChanges(present, published), [present, published])
  const isPublished = published !== null
  // A closed bot that was unpublished keeps the menu, so it can be reopened.
  const hasMenu = isPublished || isClosed

  // Keeps "Published N minutes ago" current.
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), 30_000)
    return () => clearInterval(timer)
  }, [])

  async function publish() {
    setBusy(true)
    try {
      // The server publishes its draft: send ours first.
      if (!(await api.getState().save())) return
      const response = await jsonFetch<BotSaveResponse>(`/api/v1/bots/${botId}/publish`, {
        method: 'POST',
      })
      const { bot, publishedAt } = response
      // Publishing gives the bot a publicId when it had none.
      api.getState().syncMetadata(bot)
      api.getState().setPublished({
        groups: bot.groups,
        events: bot.events,
        edges: bot.edges,
        variables: bot.variables,
        theme: bot.theme,
        settings: bot.settings,
        publishedAt: publishedAt ?? new Date().toISOString(),
      })
      showToast('success', t('editor.publish.published'))
    } catch (error) {
      showToast('error', t('editor.errors.publish'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  async function unpublish() {
    setBusy(true)
    try {
      const { bot } = await jsonFetch<BotSaveResponse>(`/api/v1/bots/${botId}/unpublish`, {
        method: 'POST',
      })
      api.getState().syncMetadata(bot)
      api.getState().setPublished(null)
      showToast('success', t('editor.publish.unpublished'))
    } catch (error) {
      showToast('error', t('editor.errors.unpublish'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  async function setClosed(closed: boolean) {
    setBusy(true)
    try {
      const { bot } = await jsonFetch<BotSaveResponse>(`/api/v1/bots/${botId}`, {
        method: 'PATCH',
        body: { isClosed: closed },
      })
      api.getState().syncMetadata(bot)
      showToast('success', closed ? t('editor.publish.closed') : t('editor.publish.reopened'))
    } catch (error) {
      showToast('error', t('editor.errors.updateBot'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  async function restorePublished() {
    setBusy(true)
    try {
      // Pending edits are saved first, so undo can bring them back after the restore.
      await api.getState().save()
      const { bot, publishedAt } = await jsonFetch<BotSaveResponse>(
        `/api/v1/bots/${botId}/restore-published`,
        { method: 'POST' }
      )
      api.getState().replaceWithSaved(bot)
      const current = api.getState().published
      if (current && publishedAt) api.getState().setPublished({ ...current, publishedAt })
      showToast('success', t('editor.publish.restored'))
    } catch (error) {
      showToast('error', t('editor.errors.updateBot'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  const publishButton = (
    <Button
      size="sm"
      data-testid="publish"
      data-tour="editor-publish"
      disabled={busy || (isPublished && !changed)}
      onClick={publish}
      className={cn(hasMenu && 'rounded-r-none')}
    >
      {isPublished && !changed ? t('editor.publish.upToDate') : t('editor.publish.publish')}
    </Button>
  )

  return (
    <div className="flex items-center gap-2">
      {isPublished && changed && (
        <Tooltip>
          <TooltipTrigger asChild>
            <span
              data-testid="unpublished-indicator"
              tabIndex={0}
              role="status"
              aria-label={t('editor.publish.unpublishedChanges')}
              className="size-2.5 rounded-full bg-amber-500 outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
            />
          </TooltipTrigger>
          <TooltipContent>{t('editor.publish.unpublishedChanges')}</TooltipContent>
        </Tooltip>
      )}
      {isClosed && (
        <Badge
          variant="secondary"
          data-testid="closed-badge"
          title={t('editor.publish.closedHint')}
        >
          <LockIcon aria-hidden /> {t('editor.publish.closedBadge')}
        </Badge>
      )}
      <div className="flex items-center">
        {isPublished && published.publishedAt ? (
          <Tooltip>
            <TooltipTrigger asChild>
              <span tabIndex={-1}>{publishButton}</span>
            </TooltipTrigger>
            <TooltipContent data-testid="published-ago">
              {t('editor.publish.publishedAgo', { time: timeSince(published.publishedAt) })}
            </TooltipContent>
          </Tooltip>
        ) : (
          publishButton
        )}
        {hasMenu && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button
                ref={menuTriggerRef}
                size="sm"
                className="rounded-l-none border-l border-primary-foreground/30 px-2"
                aria-label={t('editor.publish.menu')}
                data-testid="publish-menu"
                disabled={busy}
              >
                <ChevronDownIcon />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent
              align="end"
              onPointerDownOutside={(event) => {
                // After an item is chosen the menu animates out while still listening for
                // clicks outside it: a click on the trigger in that time reopened the menu and
                // this closing layer dismissed it again at once. The trigger decides alone.
                if (menuTriggerRef.current?.contains(event.target as Node)) event.preventDefault()
              }}
            >
              {isClosed ? (
                <DropdownMenuItem data-testid="reopen-bot" onSelect={() => setClosed(false)}>
                  <LockOpenIcon /> {t('editor.publish.reopen')}
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem data-testid="close-bot" onSelect={() => setClosed(true)}>
                  <LockIcon /> {t('editor.publish.close')}
                </DropdownMenuItem>
              )}
              {isPublished && (
                <DropdownMenuItem
                  data-testid="restore-published"
                  onSelect={() => setRestoreOpen(true)}
                >
                  <HistoryIcon /> {t('editor.publish.restore')}
                </DropdownMenuItem>
              )}
              {isPublished && (
                <>
                  <DropdownMenuSeparator />
                  <DropdownMenuItem data-testid="unpublish" onSelect={unpublish}>
                    {t('editor.publish.unpublish')}
                  </DropdownMenuItem>
                </>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      <ConfirmDialog
        open={restoreOpen}
        onOpenChange={setRestoreOpen}
        title={t('editor.publish.restoreTitle')}
        description={t('editor.publish.restoreDescription')}
        confirmLabel={t('editor.publish.restoreConfirm')}
        onConfirm={restorePublished}
      />
    </div>
  )
}
