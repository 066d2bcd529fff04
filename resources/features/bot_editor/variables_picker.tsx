import { useId, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import {
  createVariable,
  removeVariable,
  renameVariable,
  sanitizeVariableName,
  suggestVariables,
  variableToCreate,
} from '#shared/bot/editing'
import { VARIABLE_NAME_MAX_LENGTH } from '#shared/bot/variable_names'
import type { Variable } from '#shared/bot/types'
import type { VariableFieldProps } from '~/features/plugin_form/types'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { cn } from '~/lib/utils'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'

const iconButton =
  'rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50'

/**
 * A small icon button of a list line. It keeps the input's focus (mouse down does not blur
 * it), so the list stays open while a variable is renamed or removed.
 */
function ListIconButton({
  label,
  testId,
  onClick,
  children,
}: {
  label: string
  testId: string
  onClick: () => void
  children: ReactNode
}) {
  return (
    <button
      type="button"
      className={iconButton}
      aria-label={label}
      data-testid={testId}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  )
}

/** One line of the list: the create entry first (when offered), then the suggestions. */
type Entry = { kind: 'create'; name: string } | { kind: 'variable'; variable: Variable }

/**
 * How the picker sits in a generated block form (PluginForm's VariableField): the form's
 * label names the input, the chosen variable's name shows in it, picking or creating sets
 * the option. `coalesceKey` is the key of the form's own edits, so that creating a variable
 * and storing its id in the option are undone as one step.
 */
export interface PickerField extends Omit<VariableFieldProps, 'onChange' | 'disabled'> {
  coalesceKey?: string
}

/**
 * The variable picker: a suggestion list on focus and while
 * typing (50 at most, case-insensitive substring), a create entry for a name no variable
 * has (id 'v' + new id, session variable), arrows to move, Enter to pick, Escape to close,
 * inline rename (save or cancel) and removal. Names are sanitised as typed, 255 at most.
 * Picking a variable shows its name in the field and hands it to `onPick`. As a form field
 * (`field`), creating a variable also picks it.
 */
export function VariablesPicker({
  readOnly,
  onPick,
  onCreate,
  field,
}: {
  readOnly: boolean
  onPick?: (variable: Variable) => void
  /** Outside a field: a variable was just created (the text bubble inserts it). */
  onCreate?: (variable: Variable) => void
  field?: PickerField
}) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useBotEditor((state) => state.history.present.variables)
  // What the user typed since the last pick; null shows the chosen variable's name (a
  // field) or nothing (the panel's picker), and then every variable is suggested.
  const [typed, setTyped] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null)
  const query = typed ?? ''
  const chosen = field?.value
    ? variables.find((variable) => variable.id === field.value)
    : undefined
  const shownText =
    typed ??
    (field?.value ? (chosen?.name ?? t('pluginForm.unknownVariable', { id: field.value })) : '')
  const suggestions = suggestVariables(variables, query)
  const toCreate = readOnly ? undefined : variableToCreate(variables, query)
  const entries: Entry[] = [
    ...(toCreate ? [{ kind: 'create' as const, name: toCreate }] : []),
    ...suggestions.map((variable) => ({ kind: 'variable' as const, variable })),
  ]
  const listId = `${id}-list`
  const inputId = field?.id ?? `${id}-query`
  const optionId = (index: number) => `${id}-option-${index}`
  const shown = open || renaming !== null

  function type(value: string) {
    setTyped(sanitizeVariableName(value))
    setOpen(true)
    // A new list: the create entry (or nothing) is the one Enter takes.
    setActive(-1)
  }

  function create() {
    if (!toCreate) return
    const made: { variable?: Variable } = {}
    api.getState().edit(
      (bot) => {
        const result = createVariable(bot, toCreate)
        made.variable = result.variable
        return result.bot
      },
      { coalesceKey: field?.coalesceKey }
    )
    setActive(-1)
    if (field && made.variable) pick(made.variable)
    else {
      setTyped(null)
      if (made.variable) onCreate?.(made.variable)
    }
  }

  function pick(variable: Variable) {
    // A field shows the chosen name from its value; the panel's picker keeps the text.
    setTyped(field ? null : variable.name)
    setOpen(false)
    setActive(-1)
    onPick?.(variable)
  }

  function choose(entry: Entry | undefined) {
    if (!entry) return
    if (entry.kind === 'create') create()
    else pick(entry.variable)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) {
        setOpen(true)
        return
      }
      if (entries.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      // Wraps around: past the last entry comes the first one again.
      setActive((current) => (current + step + entries.length) % entries.length)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      // Without a highlighted entry, Enter creates the typed name when it is new.
      choose(active >= 0 ? entries[active] : toCreate ? entries[0] : undefined)
    } else if (event.key === 'Escape' && open) {
      // Closes the list only: the settings panel around it stays open.
      event.preventDefault()
      event.stopPropagation()
      setOpen(false)
      setActive(-1)
    }
  }

  function saveRename() {
    if (!renaming) return
    api.getState().edit((bot) => renameVariable(bot, renaming.id, renaming.name))
    setRenaming(null)
  }

  const activeIndex = active < entries.length ? active : -1

  const input = (
    <Input
      id={inputId}
      data-testid={field ? field.testId : 'variable-search'}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={shown}
      aria-controls={listId}
      aria-activedescendant={shown && activeIndex >= 0 ? optionId(activeIndex) : undefined}
      aria-label={field?.ariaLabel}
      aria-describedby={field?.describedBy}
      aria-invalid={field?.invalid || undefined}
      aria-required={field?.required || undefined}
      data-variable-id={field?.value}
      autoComplete="off"
      value={shownText}
      readOnly={field ? readOnly : undefined}
      maxLength={VARIABLE_NAME_MAX_LENGTH}
      placeholder={field?.placeholder ?? t('editor.variables.placeholder')}
      onFocus={() => {
        if (!(field && readOnly)) setOpen(true)
      }}
      onBlur={() => {
        setOpen(false)
        setActive(-1)
        // An unfinished name in a field is dropped: it shows the chosen variable again.
        if (field) setTyped(null)
      }}
      onChange={(event) => type(event.target.value)}
      onKeyDown={onKeyDown}
    />
  )

  const list = shown && (
    <ul
      id={listId}
      role="listbox"
      aria-label={t('editor.variables.title')}
      data-testid="variable-suggestions"
      className={cn(
        'grid max-h-48 gap-0.5 overflow-y-auto rounded-md border p-1 text-sm',
        // In a form the list floats over the fields below, like a select's.
        field && 'absolute top-full right-0 z-20 mt-1 w-full min-w-48 bg-popover shadow-md'
      )}
    >
      {entries.length === 0 && (
        <li role="presentation" className="px-2 py-1 text-muted-foreground">
          {t('editor.variables.empty')}
        </li>
      )}
      {entries.map((entry, index) =>
        entry.kind === 'create' ? (
          <li key="create" id={optionId(index)} role="option" aria-selected={index === activeIndex}>
            <button
              type="button"
              tabIndex={-1}
              data-testid="variable-create"
              onMouseDown={(event) => event.preventDefault()}
              onClick={create}
              className={cn(
                'flex w-full items-center gap-2 rounded px-2 py-1 text-left outline-none hover:bg-muted',
                index === activeIndex && 'bg-muted'
              )}
            >
              <PlusIcon className="size-3.5" /> {t('editor.variables.create', { name: entry.name })}
            </button>
          </li>
        ) : (
          <VariableEntry
            key={entry.variable.id}
            optionId={optionId(index)}
            variable={entry.variable}
            active={index === activeIndex}
            readOnly={readOnly}
            renaming={renaming?.id === entry.variable.id ? renaming.name : null}
            onPick={() => pick(entry.variable)}
            onRenameStart={() => setRenaming({ id: entry.variable.id, name: entry.variable.name })}
            onRenameChange={(name) =>
              setRenaming({ id: entry.variable.id, name: sanitizeVariableName(name) })
            }
            onRenameSave={saveRename}
            onRenameCancel={() => setRenaming(null)}
            onRemove={() => api.getState().edit((bot) => removeVariable(bot, entry.variable.id))}
          />
        )
      )}
    </ul>
  )

  if (field) {
    return (
      <div className="relative min-w-0" data-testid="variable-field">
        {input}
        {list}
      </div>
    )
  }
  return (
    <section className="grid gap-2" data-testid="variables-picker">
      <Label htmlFor={inputId}>{t('editor.variables.title')}</Label>
      {input}
      {list}
    </section>
  )
}

function VariableEntry({
  optionId,
  variable,
  active,
  readOnly,
  renaming,
  onPick,
  onRenameStart,
  onRenameChange,
  onRenameSave,
  onRenameCancel,
  onRemove,
}: {
  optionId: string
  variable: Variable
  active: boolean
  readOnly: boolean
  /** The name being typed while this variable is renamed inline, else null. */
  renaming: string | null
  onPick: () => void
  onRenameStart: () => void
  onRenameChange: (name: string) => void
  onRenameSave: () => void
  onRenameCancel: () => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  return (
    <li
      id={optionId}
      role="option"
      aria-selected={active}
      data-testid="variable-suggestion"
      className={cn('flex items-center gap-1 rounded px-1', active && 'bg-muted')}
    >
      {renaming !== null ? (
        <>
          <Input
            autoFocus
            aria-label={t('editor.variables.rename')}
            data-testid="variable-rename-input"
            className="h-7 flex-1"
            value={renaming}
            maxLength={VARIABLE_NAME_MAX_LENGTH}
            onChange={(event) => onRenameChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault()
                onRenameSave()
              } else if (event.key === 'Escape') {
                event.preventDefault()
                event.stopPropagation()
                onRenameCancel()
              }
            }}
          />
          <ListIconButton
            label={t('common.save')}
            testId="variable-rename-save"
            onClick={onRenameSave}
          >
            <CheckIcon className="size-3.5" />
          </ListIconButton>
          <ListIconButton
            label={t('common.cancel')}
            testId="variable-rename-cancel"
            onClick={onRenameCancel}
          >
            <XIcon className="size-3.5" />
          </ListIconButton>
        </>
      ) : (
        <>
          <button
            type="button"
            tabIndex={-1}
            className="min-w-0 flex-1 truncate py-1 text-left outline-none"
            onMouseDown={(event) => event.preventDefault()}
            onClick={onPick}
          >
            {variable.name}
          </button>
          {!readOnly && (
            <>
              <ListIconButton
                label={t('editor.variables.rename')}
                testId="variable-rename"
                onClick={onRenameStart}
              >
                <PencilIcon className="size-3.5" />
              </ListIconButton>
              <ListIconButton
                label={t('editor.variables.remove')}
                testId="variable-remove"
                onClick={onRemove}
              >
                <Trash2Icon className="size-3.5" />
              </ListIconButton>
            </>
          )}
        </>
      )}
    </li>
  )
}
