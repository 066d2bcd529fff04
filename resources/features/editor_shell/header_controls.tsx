import { useEffect, useState, type ReactNode } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { ArrowLeftIcon, Redo2Icon, Undo2Icon } from 'lucide-react'
import { useStore, type StoreApi } from 'zustand'
import { canRedo, canUndo, type History } from '#shared/bot/history'
import { Button } from '~/components/ui/button'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { cn } from '~/lib/utils'
import type { EditorSurface } from './item_settings'

/**
 * The start of both editors' headers: the way back to the list, the document's name
 * (renamed in place), undo and redo. The test ids, texts and sizes stay each surface's.
 */

/** What the header needs of an editor store (a bot or a workflow: a named document). */
export interface HeaderState {
  readOnly: boolean
  history: History<{ name: string }>
  // A method: each store's edit takes its own document type.
  edit(fn: (doc: { name: string }) => { name: string }): void
  undo(): void
  redo(): void
}

interface ControlProps<S extends HeaderState> {
  surface: EditorSurface
  store: StoreApi<S>
}

const SURFACE = {
  bot: {
    list: '/bots',
    back: 'editor.back',
    backTestId: 'editor-back',
    nameTestId: 'bot-name',
    nameLabel: 'editor.botName',
    nameWidth: 'w-32',
    undo: 'editor.undo',
    redo: 'editor.redo',
    undoGroup: 'flex shrink-0 items-center',
    button: { size: 'icon', className: 'size-8' },
    saveStatus: 'editor.saveStatus',
    // In the header's menu on small screens, where it has room.
    saveStatusClass: undefined,
  },
  workflow: {
    list: '/workflows',
    back: 'workflowEditor.back',
    backTestId: 'workflow-back',
    nameTestId: 'workflow-name',
    nameLabel: 'workflowEditor.name',
    nameWidth: 'w-28',
    undo: 'workflowEditor.undo',
    redo: 'workflowEditor.redo',
    undoGroup: 'flex items-center',
    button: { size: 'icon-sm', className: undefined },
    saveStatus: 'workflowEditor.saveStatus',
    // In the header's row, where a phone has no room for it: read out only.
    saveStatusClass: 'max-md:sr-only',
  },
} as const

/** The arrow back to the bots or workflows list. */
export function BackToList({ surface }: { surface: EditorSurface }) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  return (
    <Button variant="ghost" {...texts.button} asChild>
      <Link href={texts.list} aria-label={t(texts.back)} data-testid={texts.backTestId}>
        <ArrowLeftIcon />
      </Link>
    </Button>
  )
}

/**
 * The document's name: text in read-only modes, else an input that renames on blur or
 * Enter (an empty name is refused) and gives the change up on Escape.
 */
export function EditableName<S extends HeaderState>({ surface, store }: ControlProps<S>) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  const readOnly = useStore(store, (state) => state.readOnly)
  const name = useStore(store, (state) => state.history.present.name)
  const [draftName, setDraftName] = useState(name)
  useEffect(() => setDraftName(name), [name])

  function commitName() {
    const clean = draftName.trim()
    if (!clean) return setDraftName(name)
    if (clean !== name) store.getState().edit((doc) => ({ ...doc, name: clean }))
  }

  if (readOnly) {
    // The workflow's name heads its page; the bot's page has its own heading elsewhere.
    const Text = surface === 'workflow' ? 'h1' : 'span'
    return (
      <Text data-testid={texts.nameTestId} className="max-w-56 truncate px-2 text-sm font-semibold">
        {name}
      </Text>
    )
  }
  return (
    <input
      data-testid={texts.nameTestId}
      aria-label={t(texts.nameLabel)}
      value={draftName}
      maxLength={200}
      onChange={(event) => setDraftName(event.target.value)}
      onBlur={commitName}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur()
        if (event.key === 'Escape') {
          setDraftName(name)
          event.currentTarget.blur()
        }
      }}
      className={cn(
        texts.nameWidth,
        'min-w-0 truncate rounded-md bg-transparent px-2 py-1 text-sm font-semibold outline-none hover:bg-muted focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50 md:w-48'
      )}
    />
  )
}

/** Undo and redo, each off while there is nothing to undo or redo. */
export function UndoRedo<S extends HeaderState>({ surface, store }: ControlProps<S>) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  const undoable = useStore(store, (state) => canUndo(state.history))
  const redoable = useStore(store, (state) => canRedo(state.history))
  return (
    <div className={texts.undoGroup}>
      {(
        [
          { action: 'undo', label: texts.undo, enabled: undoable, Icon: Undo2Icon },
          { action: 'redo', label: texts.redo, enabled: redoable, Icon: Redo2Icon },
        ] as const
      ).map(({ action, label, enabled, Icon }) => (
        <IconAction
          key={action}
          surface={surface}
          label={t(label)}
          testId={action}
          disabled={!enabled}
          onClick={() => store.getState()[action]()}
        >
          <Icon />
        </IconAction>
      ))}
    </div>
  )
}

/** Whether the draft is saved, saving or failed; read out when it changes. */
export function SaveStatus({ surface, status }: { surface: EditorSurface; status: string }) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  return (
    <span
      data-testid="save-status"
      data-status={status}
      aria-live="polite"
      className={cn('text-xs whitespace-nowrap text-muted-foreground', texts.saveStatusClass)}
    >
      {t(`${texts.saveStatus}.${status}`)}
    </span>
  )
}

/** An icon-only header button with its label as tooltip and accessible name. */
export function IconAction({
  surface,
  label,
  testId,
  disabled,
  onClick,
  className,
  children,
}: {
  surface: EditorSurface
  label: string
  testId: string
  disabled?: boolean
  onClick: () => void
  className?: string
  children: ReactNode
}) {
  const button = SURFACE[surface].button
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size={button.size}
          className={cn(button.className, className)}
          data-testid={testId}
          aria-label={label}
          disabled={disabled}
          onClick={onClick}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  )
}
