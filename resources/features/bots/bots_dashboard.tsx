import { useEffect, useState } from 'react'
import { Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BotIcon, FolderOpenIcon, PlusIcon } from 'lucide-react'
import { toast } from 'sonner'
import { PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { PlanLimitGate, usePlanLimit } from '~/features/plans/plan_limit'
import { Button, buttonVariants } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { usePageProps } from '~/hooks/use_shared_props'
import { BotCard, type BotActions } from './bot_card'
import { FolderCard } from './folder_card'
import { CreateBotDialog } from './create_bot_dialog'
import { NewFolderButton } from './new_folder_button'
import { DashboardBreadcrumbs } from './dashboard_breadcrumbs'
import { useFolderNavigation } from './use_folder_navigation'
import { visitSucceeded, type BotSummaryDto, type DashboardProps } from './types'

const GRID = 'grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-4'
const VISIT = { preserveScroll: true, preserveState: true } as const

function DashboardSkeleton() {
  return (
    <div className="grid gap-6" data-testid="bots-loading" aria-busy>
      <div className={GRID}>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-14 rounded-xl" />
        ))}
      </div>
      <div className={GRID}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-36 rounded-xl" />
        ))}
      </div>
    </div>
  )
}

/** Bots hidden at once while their move, archive or deletion is on its way (shown again on failure). */
function usePendingBots() {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const hide = (id: string) => setPending((set) => new Set(set).add(id))
  const show = (id: string) =>
    setPending((set) => {
      const next = new Set(set)
      next.delete(id)
      return next
    })
  return { pending, hide, show }
}

/**
 * The "My bots" dashboard: folders then bots of one folder level, with creation, import,
 * drag and drop into folders and each bot's actions. Without props (behind the settings
 * modal) it shows its skeleton.
 */
export function BotsDashboard(props: Partial<DashboardProps>) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  const navigating = useFolderNavigation()
  // /bots/create opens the dialog, unless the bot limit is reached (the page then says so).
  const atBotLimit = usePlanLimit('botCreation') !== null
  const [creatingBot, setCreatingBot] = useState(() => !!props.openCreate && !atBotLimit)
  const [creatingFolder, setCreatingFolder] = useState(false)
  const [renamingFolderId, setRenamingFolderId] = useState<string | null>(null)
  const [newFolder, setNewFolder] = useState<{ parent: string | null; known: Set<string> }>()
  const { pending, hide, show } = usePendingBots()

  const loaded = props.bots !== undefined && props.folders !== undefined
  const folders = props.folders ?? []
  const allFolders = props.allFolders ?? []
  const bots = (props.bots ?? []).filter((bot) => !pending.has(bot.id))
  const currentFolder = props.currentFolder ?? null
  const breadcrumbs = props.breadcrumbs ?? []
  const readOnly = !loaded || !currentWorkspace || currentWorkspace.role === 'GUEST'

  function folderName(folderId: string | null) {
    if (!folderId) return t('bots.title')
    return allFolders.find((folder) => folder.id === folderId)?.name ?? t('bots.title')
  }

  function moveBot(bot: Pick<BotSummaryDto, 'id' | 'name' | 'folderId'>, folderId: string | null) {
    if (bot.folderId === folderId) return
    hide(bot.id)
    router.patch(
      `/bots/${bot.id}`,
      { folderId },
      {
        ...VISIT,
        onSuccess: (page) =>
          visitSucceeded(page) &&
          toast.success(t('bots.move.moved', { name: bot.name, folder: folderName(folderId) }), {
            action: {
              label: t('bots.undo'),
              onClick: () => router.patch(`/bots/${bot.id}`, { folderId: bot.folderId }, VISIT),
            },
          }),
        onFinish: () => show(bot.id),
      }
    )
  }

  function dropBot(botId: string, folderId: string | null) {
    const bot = props.bots?.find((candidate) => candidate.id === botId)
    moveBot(bot ?? { id: botId, name: '', folderId: currentFolder?.id ?? null }, folderId)
  }

  const actions: BotActions = {
    move: moveBot,
    archive: (bot) => {
      hide(bot.id)
      router.patch(
        `/bots/${bot.id}`,
        { isArchived: true },
        {
          ...VISIT,
          onSuccess: (page) =>
            visitSucceeded(page) &&
            toast.success(t('bots.archive.done', { name: bot.name }), {
              action: {
                label: t('bots.undo'),
                onClick: () => router.patch(`/bots/${bot.id}`, { isArchived: false }, VISIT),
              },
            }),
          onFinish: () => show(bot.id),
        }
      )
    },
    remove: (bot) => {
      hide(bot.id)
      router.delete(`/bots/${bot.id}`, { ...VISIT, onFinish: () => show(bot.id) })
    },
  }

  // A folder just created opens for naming at once, once it shows in its parent.
  useEffect(() => {
    if (!newFolder || !props.folders) return
    const created = props.folders.find(
      (folder) => folder.parentFolderId === newFolder.parent && !newFolder.known.has(folder.id)
    )
    if (!created) return
    setRenamingFolderId(created.id)
    setNewFolder(undefined)
  }, [props.folders, newFolder])

  function createFolder() {
    const parent = currentFolder?.id ?? null
    setCreatingFolder(true)
    setNewFolder({ parent, known: new Set(allFolders.map((folder) => folder.id)) })
    router.post('/folders', parent ? { parentFolderId: parent } : {}, {
      ...VISIT,
      onError: () => setNewFolder(undefined),
      onFinish: () => setCreatingFolder(false),
    })
  }

  // New, import and template all add a bot: the one button to them waits at the limit.
  const createButton = (
    <PlanLimitGate limitKey="botCreation" label={t('bots.create.button')} testId="create-bot">
      <Button
        size="sm"
        data-testid="create-bot"
        data-tour="bots-create"
        onClick={() => setCreatingBot(true)}
      >
        <PlusIcon aria-hidden />
        {t('bots.create.button')}
      </Button>
    </PlanLimitGate>
  )

  const isEmpty = folders.length === 0 && bots.length === 0

  return (
    <>
      <PageHeader
        title={currentFolder?.name ?? t('bots.title')}
        description={
          currentWorkspace?.role === 'GUEST'
            ? t('bots.readOnly')
            : currentFolder
              ? undefined
              : t('bots.description')
        }
        actions={
          <div className="flex flex-wrap items-start gap-2">
            <Link
              href="/bots/plans"
              className={buttonVariants({ variant: 'ghost', size: 'sm' })}
              data-testid="view-plans"
            >
              {t('bots.viewPlans')}
            </Link>
            {!readOnly && (
              <>
                <Link
                  href="/bots/import-typebot"
                  className={buttonVariants({ variant: 'ghost', size: 'sm' })}
                  data-testid="import-from-typebot"
                >
                  {t('typebotImport.dashboardLink')}
                </Link>
                <NewFolderButton
                  canUseFolders={!!props.canUseFolders}
                  creating={creatingFolder}
                  onCreate={createFolder}
                />
                {createButton}
              </>
            )}
          </div>
        }
      />
      <div className="grid gap-6 p-6">
        {currentFolder && (
          <DashboardBreadcrumbs
            breadcrumbs={breadcrumbs.length ? breadcrumbs : [currentFolder]}
            readOnly={readOnly}
            onDropBot={(botId, folderId) => dropBot(botId, folderId)}
          />
        )}
        {!loaded || navigating ? (
          <DashboardSkeleton />
        ) : isEmpty ? (
          <EmptyState
            icon={currentFolder ? FolderOpenIcon : BotIcon}
            title={currentFolder ? t('bots.emptyFolderTitle') : t('bots.emptyTitle')}
            description={
              readOnly
                ? t('bots.emptyReadOnly')
                : currentFolder
                  ? t('bots.emptyFolderDescription')
                  : t('bots.emptyDescription')
            }
            testId="bots-empty"
          >
            {!readOnly && createButton}
          </EmptyState>
        ) : (
          <>
            {folders.length > 0 && (
              <section aria-labelledby="folders-heading" className="grid gap-3">
                <h2
                  id="folders-heading"
                  className="text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                >
                  {t('bots.foldersHeading')}
                </h2>
                <ul className={GRID} data-testid="folder-grid">
                  {folders.map((folder) => (
                    <FolderCard
                      key={folder.id}
                      folder={folder}
                      readOnly={readOnly}
                      canShareFolders={!!props.canShareFolders}
                      renaming={renamingFolderId === folder.id}
                      onRenamingChange={(renaming) =>
                        setRenamingFolderId(renaming ? folder.id : null)
                      }
                      onDropBot={(botId, target) => dropBot(botId, target.id)}
                    />
                  ))}
                </ul>
              </section>
            )}
            {bots.length > 0 && (
              <section aria-labelledby="bots-heading" className="grid gap-3">
                <h2
                  id="bots-heading"
                  className="text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                >
                  {t('bots.botsHeading')}
                </h2>
                <ul className={GRID} data-testid="bot-grid">
                  {bots.map((bot) => (
                    <BotCard
                      key={bot.id}
                      bot={bot}
                      folders={allFolders}
                      readOnly={readOnly}
                      actions={actions}
                    />
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </div>
      {!readOnly && (
        <CreateBotDialog
          open={creatingBot}
          onOpenChange={(open) => {
            setCreatingBot(open)
            // Closed, the address is the dashboard's again: a reload must not reopen it.
            if (!open && props.openCreate) {
              router.replace({
                url: '/bots',
                props: (current) => ({ ...current, openCreate: false }),
                preserveState: true,
                preserveScroll: true,
              })
            }
          }}
          folder={currentFolder}
        />
      )}
    </>
  )
}
