import { useCallback, useMemo, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import {
  BotIcon,
  EyeIcon,
  GitCompareIcon,
  HistoryIcon,
  RotateCcwIcon,
  SaveIcon,
  UserIcon,
} from 'lucide-react'
import type { ChangeKind, ItemChange, VersionDiff } from '#shared/history/diff'
import type { VersionAuthorDto, VersionKind } from '#shared/history/types'
import { VERSION_NAME_MAX_LENGTH } from '#shared/history/types'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { showToast } from '~/lib/toast'
import { formatDateTime, formatRelativeTime } from '~/lib/format'
import { cn } from '~/lib/utils'

/**
 * The history of an editor's document, shared by the bot and workflow editors
 * (docs/workflows.md "History"): every version with its name, what made it, its author and
 * time; a named save; a read-only preview; a restore; and a comparison of any two versions
 * on the canvas, with what changed listed beside it.
 */

export interface HistoryVersion<S> {
  id: string
  versionName: string
  kind: VersionKind
  snapshot: S
  author: VersionAuthorDto | null
  /** The copilot made it. */
  byAssistant?: boolean
  updatedAt: string
}

export interface HistoryAdapter<S> {
  readOnly: boolean
  /** Newest first; pending edits are saved first, so the list shows what the server holds. */
  list: () => Promise<HistoryVersion<S>[]>
  saveNamed: (name: string) => Promise<void>
  restore: (version: HistoryVersion<S>) => Promise<void>
  diff: (before: S, after: S) => VersionDiff
  /** A read-only canvas of a snapshot; with a diff, what changed is highlighted. */
  canvas: (props: { snapshot: S; diff?: Record<string, ChangeKind>; testId: string }) => ReactNode
  /** The snapshot shown when comparing: the newer one plus what only the older one had. */
  merge: (before: S, after: S) => S
  /**
   * Toast titles of failed calls when the editor has its own (the workflow
   * editor's); the panel's generic ones otherwise.
   */
  errorTitles?: { fetch?: string; save?: string; restore?: string }
  /** A node or block type's name (its plugin's), for changes that have no title of their own. */
  typeName?: (type: string) => string | undefined
}

type Load<S> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'loaded'; versions: HistoryVersion<S>[] }

function messageOf(error: unknown) {
  return (error as { description?: string }).description ?? (error as Error).message
}

export function HistoryPanel<S>({ adapter }: { adapter: HistoryAdapter<S> }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [load, setLoad] = useState<Load<S>>({ state: 'idle' })
  // Dialogs live outside the popover: taking the focus, they would close it under them.
  const [preview, setPreview] = useState<HistoryVersion<S> | null>(null)
  const [restoring, setRestoring] = useState<HistoryVersion<S> | null>(null)
  const [picked, setPicked] = useState<string[]>([])
  const [comparing, setComparing] = useState<[HistoryVersion<S>, HistoryVersion<S>] | null>(null)
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)

  const fetchVersions = useCallback(async () => {
    setLoad({ state: 'loading' })
    try {
      setLoad({ state: 'loaded', versions: await adapter.list() })
    } catch (error) {
      const message = messageOf(error)
      setLoad({ state: 'error', message })
      showToast('error', adapter.errorTitles?.fetch ?? t('editorHistory.errors.fetch'), message)
    }
  }, [adapter, t])

  async function restore(version: HistoryVersion<S>) {
    setBusy(true)
    try {
      await adapter.restore(version)
      setPreview(null)
      setComparing(null)
      showToast('success', t('editorHistory.restored', { name: version.versionName }))
    } catch (error) {
      showToast(
        'error',
        adapter.errorTitles?.restore ?? t('editorHistory.errors.restore'),
        messageOf(error)
      )
    } finally {
      setBusy(false)
    }
  }

  async function saveNamed(event: FormEvent) {
    event.preventDefault()
    const clean = name.trim()
    if (!clean) return
    setBusy(true)
    try {
      await adapter.saveNamed(clean)
      setName('')
      showToast('success', t('editorHistory.saved', { name: clean }))
      await fetchVersions()
    } catch (error) {
      showToast(
        'error',
        adapter.errorTitles?.save ?? t('editorHistory.errors.save'),
        messageOf(error)
      )
    } finally {
      setBusy(false)
    }
  }

  function togglePick(id: string) {
    // The two latest picks are compared.
    setPicked((current) =>
      current.includes(id) ? current.filter((other) => other !== id) : [...current, id].slice(-2)
    )
  }

  function compare() {
    if (load.state !== 'loaded' || picked.length !== 2) return
    // Newest first in the list: the later one in it is the older version.
    const [newer, older] = load.versions.filter((version) => picked.includes(version.id))
    setOpen(false)
    setComparing([older, newer])
  }

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (next) {
            setPicked([])
            void fetchVersions()
          }
        }}
      >
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="sm"
            data-testid="history-button"
            aria-label={t('editorHistory.title')}
          >
            <HistoryIcon />
            <span className="hidden lg:inline">{t('editorHistory.title')}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent
          align="end"
          className="w-[min(26rem,calc(100vw-1rem))] p-0"
          data-testid="history-panel"
        >
          <div className="border-b px-4 py-3">
            <h3 className="text-sm font-semibold">{t('editorHistory.title')}</h3>
            <p className="text-xs text-muted-foreground">{t('editorHistory.hint')}</p>
            {!adapter.readOnly && (
              <form className="mt-2 flex gap-2" onSubmit={(event) => void saveNamed(event)}>
                <Input
                  data-testid="history-save-name"
                  aria-label={t('editorHistory.saveName')}
                  placeholder={t('editorHistory.saveName')}
                  value={name}
                  maxLength={VERSION_NAME_MAX_LENGTH}
                  onChange={(event) => setName(event.target.value)}
                  className="h-8"
                />
                <Button
                  type="submit"
                  size="sm"
                  variant="outline"
                  data-testid="history-save"
                  disabled={busy || !name.trim()}
                >
                  <SaveIcon aria-hidden /> {t('editorHistory.save')}
                </Button>
              </form>
            )}
          </div>
          <div className="max-h-80 overflow-y-auto p-2" aria-busy={load.state === 'loading'}>
            {(load.state === 'loading' || load.state === 'idle') && (
              <div className="grid gap-2 p-2" data-testid="history-loading">
                {[0, 1, 2].map((row) => (
                  <Skeleton key={row} className="h-10 w-full" />
                ))}
              </div>
            )}
            {load.state === 'error' && (
              <div className="grid gap-2 p-2 text-sm" role="alert">
                <p className="text-destructive">{load.message}</p>
                <Button variant="outline" size="sm" onClick={() => void fetchVersions()}>
                  {t('editorHistory.retry')}
                </Button>
              </div>
            )}
            {load.state === 'loaded' && load.versions.length === 0 && (
              <p className="p-3 text-sm text-muted-foreground" data-testid="history-empty">
                {t('editorHistory.empty')}
              </p>
            )}
            {load.state === 'loaded' && load.versions.length > 0 && (
              <ul className="grid gap-1">
                {load.versions.map((version) => (
                  <VersionRow
                    key={version.id}
                    version={version}
                    picked={picked.includes(version.id)}
                    readOnly={adapter.readOnly}
                    busy={busy}
                    onPick={() => togglePick(version.id)}
                    onPreview={() => {
                      setOpen(false)
                      setPreview(version)
                    }}
                    onRestore={() => {
                      setOpen(false)
                      setRestoring(version)
                    }}
                  />
                ))}
              </ul>
            )}
          </div>
          {load.state === 'loaded' && load.versions.length > 1 && (
            <div className="flex items-center justify-between gap-2 border-t px-4 py-2">
              <p className="text-xs text-muted-foreground">{t('editorHistory.compareHint')}</p>
              <Button
                size="sm"
                variant="outline"
                data-testid="history-compare"
                disabled={picked.length !== 2}
                onClick={compare}
              >
                <GitCompareIcon aria-hidden /> {t('editorHistory.compare')}
              </Button>
            </div>
          )}
        </PopoverContent>
      </Popover>

      <Dialog
        open={preview !== null}
        onOpenChange={(next) => {
          if (!next) setPreview(null)
        }}
      >
        <DialogContent
          className="flex h-[80dvh] flex-col sm:max-w-5xl"
          data-testid="version-preview"
        >
          <DialogHeader>
            <DialogTitle>{preview?.versionName}</DialogTitle>
            <DialogDescription>
              {preview &&
                t('editorHistory.previewDescription', {
                  time: formatRelativeTime(preview.updatedAt),
                })}
            </DialogDescription>
          </DialogHeader>
          <div className="min-h-0 flex-1 overflow-hidden rounded-lg border">
            {preview &&
              adapter.canvas({ snapshot: preview.snapshot, testId: 'version-preview-canvas' })}
          </div>
          {!adapter.readOnly && preview && (
            <DialogFooter>
              <Button
                data-testid="version-preview-restore"
                disabled={busy}
                onClick={() => setRestoring(preview)}
              >
                <RotateCcwIcon /> {t('editorHistory.restoreConfirm')}
              </Button>
            </DialogFooter>
          )}
        </DialogContent>
      </Dialog>

      {comparing && (
        <CompareDialog
          adapter={adapter}
          before={comparing[0]}
          after={comparing[1]}
          onClose={() => setComparing(null)}
        />
      )}

      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(next) => {
          if (!next) setRestoring(null)
        }}
        title={t('editorHistory.restoreTitle', { name: restoring?.versionName ?? '' })}
        description={t('editorHistory.restoreDescription')}
        confirmLabel={t('editorHistory.restoreConfirm')}
        onConfirm={() => {
          if (restoring) void restore(restoring)
        }}
      />
    </>
  )
}

function VersionRow<S>({
  version,
  picked,
  readOnly,
  busy,
  onPick,
  onPreview,
  onRestore,
}: {
  version: HistoryVersion<S>
  picked: boolean
  readOnly: boolean
  busy: boolean
  onPick: () => void
  onPreview: () => void
  onRestore: () => void
}) {
  const { t } = useTranslation()
  const author = version.byAssistant
    ? t('editorHistory.byAssistant')
    : (version.author?.name ?? version.author?.email ?? t('editorHistory.unknownAuthor'))
  return (
    <li
      data-testid="history-version"
      data-version-id={version.id}
      data-kind={version.kind}
      className={cn(
        'flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted/60',
        picked && 'bg-muted'
      )}
    >
      <input
        type="checkbox"
        data-testid="history-compare-pick"
        className="size-4 shrink-0 accent-primary"
        checked={picked}
        onChange={onPick}
        aria-label={t('editorHistory.pick', { name: version.versionName })}
      />
      {version.byAssistant ? (
        <BotIcon aria-hidden className="size-4 shrink-0 text-violet-500" />
      ) : (
        <UserIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      )}
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <span className="truncate" data-testid="history-version-name">
            {version.versionName}
          </span>
          <Badge variant="secondary" className="shrink-0" data-testid="history-version-kind">
            {t(`editorHistory.kind.${version.kind}`)}
          </Badge>
        </p>
        <p className="truncate text-xs text-muted-foreground">
          <time dateTime={version.updatedAt} title={formatDateTime(version.updatedAt)}>
            {formatRelativeTime(version.updatedAt)}
          </time>
          {' · '}
          <span data-testid="history-version-author">{author}</span>
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon-sm"
        data-testid="history-preview"
        aria-label={t('editorHistory.preview', { name: version.versionName })}
        onClick={onPreview}
      >
        <EyeIcon />
      </Button>
      {!readOnly && (
        <Button
          variant="ghost"
          size="icon-sm"
          data-testid="history-restore"
          disabled={busy}
          aria-label={t('editorHistory.restore', { name: version.versionName })}
          onClick={onRestore}
        >
          <RotateCcwIcon />
        </Button>
      )}
    </li>
  )
}

const KIND_STYLES: Record<ChangeKind, string> = {
  added: 'border-l-emerald-500',
  removed: 'border-l-red-500',
  changed: 'border-l-amber-500',
}

/** Two versions on one canvas: the newer one plus what only the older had, marked. */
function CompareDialog<S>({
  adapter,
  before,
  after,
  onClose,
}: {
  adapter: HistoryAdapter<S>
  before: HistoryVersion<S>
  after: HistoryVersion<S>
  onClose: () => void
}) {
  const { t } = useTranslation()
  const diff = useMemo(
    () => adapter.diff(before.snapshot, after.snapshot),
    [adapter, before, after]
  )
  const merged = useMemo(
    () => adapter.merge(before.snapshot, after.snapshot),
    [adapter, before, after]
  )
  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) onClose()
      }}
    >
      <DialogContent className="flex h-[85dvh] flex-col sm:max-w-6xl" data-testid="version-compare">
        <DialogHeader>
          <DialogTitle>
            {t('editorHistory.compareTitle', {
              before: before.versionName,
              after: after.versionName,
            })}
          </DialogTitle>
          <DialogDescription>{t('editorHistory.compareDescription')}</DialogDescription>
        </DialogHeader>
        <div className="flex min-h-0 flex-1 flex-col gap-3 md:flex-row">
          <div className="min-h-64 flex-1 overflow-hidden rounded-lg border">
            {adapter.canvas({
              snapshot: merged,
              diff: diff.byId,
              testId: 'version-compare-canvas',
            })}
          </div>
          <aside
            className="max-h-60 w-full shrink-0 overflow-y-auto md:max-h-none md:w-72"
            aria-label={t('editorHistory.changes')}
          >
            {diff.changes.length === 0 && diff.fields.length === 0 ? (
              <p className="p-2 text-sm text-muted-foreground" data-testid="compare-same">
                {t('editorHistory.noChanges')}
              </p>
            ) : (
              <ul className="grid gap-1.5">
                {diff.fields.length > 0 && (
                  <li className="rounded-md border border-l-4 border-l-amber-500 p-2 text-xs">
                    <p className="font-medium">{t('editorHistory.documentFields')}</p>
                    <p className="text-muted-foreground">{diff.fields.join(', ')}</p>
                  </li>
                )}
                {diff.changes.map((change) => (
                  <ChangeRow
                    key={`${change.type}-${change.id}`}
                    change={change}
                    label={
                      change.pluginType && change.label === change.pluginType
                        ? (adapter.typeName?.(change.pluginType) ?? change.label)
                        : change.label
                    }
                  />
                ))}
              </ul>
            )}
          </aside>
        </div>
        {!adapter.readOnly && (
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              {t('editorHistory.close')}
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  )
}

/** A field's value as one short line: text as it is, anything else as JSON; absent as a dash. */
function shownValue(value: unknown) {
  if (value === undefined || value === null || value === '') return '—'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 119)}…` : text
}

function ChangeRow({ change, label }: { change: ItemChange; label: string }) {
  const { t } = useTranslation()
  return (
    <li
      data-testid="compare-change"
      data-kind={change.kind}
      data-item-id={change.id}
      className={cn('rounded-md border border-l-4 p-2 text-xs', KIND_STYLES[change.kind])}
    >
      <p className="font-medium">
        {t(`editorHistory.change.${change.kind}`)} · {t(`editorHistory.item.${change.type}`)}
      </p>
      <p className="truncate" title={label}>
        {label}
      </p>
      {change.fields.length > 0 && (
        <p className="text-muted-foreground" data-testid="compare-change-fields">
          {change.fields.join(', ')}
        </p>
      )}
      {change.values && (
        <dl className="mt-1 grid gap-1" data-testid="compare-change-values">
          {change.fields.map((field) => (
            <div key={field} className="grid gap-0.5" data-field={field}>
              <dt className="font-medium">{field}</dt>
              <dd className="break-words">
                <del className="text-red-700 dark:text-red-300">
                  {shownValue(change.values![field]?.before)}
                </del>
                {' → '}
                <ins className="text-green-700 no-underline dark:text-green-300">
                  {shownValue(change.values![field]?.after)}
                </ins>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  )
}
