import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type RefObject,
} from 'react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import {
  addItem,
  deleteItem,
  suggestVariables,
  updateBlockContent,
  updateBlockOptions,
  updateItem,
} from '#shared/bot/editing'
import { locateBlock } from '#shared/bot/graph'
import type { Block, Item } from '#shared/bot/types'
import { Button } from '~/components/ui/button'
import { FieldHint, Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { cn } from '~/lib/utils'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import { BlockForm as CustomOrGeneratedForm } from '~/features/plugin_form/block_form'
import {
  hasCredentialsField,
  useWorkspaceCredentials,
} from '~/features/plugin_form/use_workspace_credentials'
import { defaultsOfFields } from '~/features/plugin_form/values'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { formErrorsOf } from '~/features/plugin_form/issues'
import type { VariableFieldProps } from '~/features/plugin_form/types'
import {
  useInsertionTarget,
  useRegisterInsertion,
  VariableInsertion,
} from '~/features/plugin_form/variable_insertion'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { plainToRichText, textBubbleText } from './block_summary'
import { useEditorPlugin } from './editor_plugins'
import { VariablesPicker } from './variables_picker'
import type { EditorPlugin } from './types'

/**
 * Pans the canvas so that the group of the block just opened is not under its settings
 * panel (a block near the right edge, a group just dropped there): the builder sees what
 * they edit. On a phone the panel takes the width, and nothing moves.
 */
function useKeptClearOfPanel(panelRef: RefObject<HTMLElement | null>, openBlockId: string | null) {
  const api = useBotEditorApi()
  const { getViewport, setViewport } = useReactFlow()
  useEffect(() => {
    if (!openBlockId) return
    const groupId = locateBlock(api.getState().history.present, openBlockId)?.group.id
    const panel = panelRef.current
    const group = groupId
      ? document.querySelector<HTMLElement>(`[data-group-id="${CSS.escape(groupId)}"]`)
      : null
    if (!panel || !group) return
    const panelBox = panel.getBoundingClientRect()
    const groupBox = group.getBoundingClientRect()
    const overlap = groupBox.right + 24 - panelBox.left
    const besideIt = groupBox.bottom < panelBox.top || groupBox.top > panelBox.bottom
    if (overlap <= 0 || besideIt || panelBox.left < groupBox.width) return
    const viewport = getViewport()
    void setViewport({ ...viewport, x: viewport.x - overlap }, { duration: 200 })
  }, [openBlockId, api, panelRef, getViewport, setViewport])
}

/**
 * The settings of the open block, in a panel over the right of the canvas: the plugin's
 * generated form (PluginForm), an action select for plugins with actions, the item editor
 * for blocks with items, and the variable picker.
 */
export function BlockSettings() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const openBlockId = useBotEditor((state) => state.openBlockId)
  const block = useBotEditor((state) =>
    state.openBlockId ? locateBlock(state.history.present, state.openBlockId)?.block : undefined
  )
  const readOnly = useBotEditor((state) => state.readOnly)
  const plugin = useEditorPlugin(block?.type ?? '')
  const panelRef = useRef<HTMLElement>(null)
  // The field the Variables picker inserts into: the text bubble, a code or value editor.
  const insertion = useInsertionTarget()

  // The block went away (deleted, undone): close.
  useEffect(() => {
    if (openBlockId && !block) api.getState().openBlock(null)
  }, [openBlockId, block, api])

  useEffect(() => {
    if (openBlockId) panelRef.current?.focus()
  }, [openBlockId])

  useKeptClearOfPanel(panelRef, openBlockId)

  if (!block) return null
  const close = () => api.getState().openBlock(null)

  return (
    <aside
      ref={panelRef}
      tabIndex={-1}
      data-testid="block-settings"
      aria-label={t('editor.block.settings')}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close()
      }}
      className="absolute top-3 right-3 bottom-3 z-10 flex w-96 max-w-[calc(100%-1.5rem)] flex-col rounded-xl border bg-card shadow-lg outline-none"
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <PluginIcon id={block.type} icon={plugin?.icon} className="size-4 text-primary" />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">
          {plugin?.name ?? block.type}
        </h2>
        <button
          type="button"
          data-testid="block-settings-close"
          aria-label={t('common.close')}
          onClick={close}
          className="rounded-md p-1 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
        >
          <XIcon className="size-4" />
        </button>
      </header>
      <div className="grid min-h-0 flex-1 content-start gap-6 overflow-y-auto p-4">
        <VariableInsertion.Provider value={insertion}>
          {plugin ? (
            <BlockForm key={block.id} block={block} plugin={plugin} readOnly={readOnly} />
          ) : (
            <p className="text-sm text-muted-foreground">{t('editor.block.unknownPlugin')}</p>
          )}
        </VariableInsertion.Provider>
        <VariablesPicker
          readOnly={readOnly}
          onPick={(variable) => insertion.current?.(variable.name)}
          onCreate={(variable) => insertion.current?.(variable.name)}
        />
      </div>
    </aside>
  )
}

/** The coalesce key of the form around a variable field (see BotVariableField). */
const FormEditKey = createContext<string | undefined>(undefined)

/**
 * The variable fields of the block forms: the picker, so that a builder can create the
 * variable a block saves into right there. Creating one and storing its id share the
 * form's coalesce key, so one undo takes both back.
 */
function BotVariableField({ disabled, onChange, ...field }: VariableFieldProps) {
  const readOnly = useBotEditor((state) => state.readOnly)
  const coalesceKey = useContext(FormEditKey)
  return (
    <VariablesPicker
      readOnly={readOnly || !!disabled}
      onPick={(variable) => onChange(variable.id)}
      field={{ ...field, coalesceKey }}
    />
  )
}

function useFormVariables() {
  return useBotEditor((state) => state.history.present.variables)
}

function BlockForm({
  block,
  plugin,
  readOnly,
}: {
  block: Block
  plugin: EditorPlugin
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const form = plugin.form
  const workspaceId = useBotEditor((state) => state.history.present.workspaceId)
  // AI and database blocks pick one of the workspace's credentials records.
  const credentials = useWorkspaceCredentials(
    workspaceId,
    hasCredentialsField([...form.fields, ...(form.actions ?? []).flatMap((a) => a.fields)])
  )
  const edit = api.getState().edit
  const issues = useBotEditor((state) => state.issues[block.id])

  if (block.type === 'text') return <TextBubbleEditor block={block} readOnly={readOnly} />

  const inContent = form.storedIn === 'content'
  const value = (inContent ? block.content : block.options) ?? {}
  const change = (next: Record<string, unknown>) =>
    edit(
      (bot) =>
        inContent
          ? updateBlockContent(bot, block.id, () => next)
          : updateBlockOptions(bot, block.id, () => next),
      { coalesceKey: `block:${block.id}` }
    )

  const actions = form.actions ?? []
  const actionName = typeof value.action === 'string' ? value.action : undefined
  const action = actions.find((candidate) => candidate.name === actionName)
  const fields = action ? [...form.fields, ...action.fields] : form.fields

  return (
    <div className="grid gap-6">
      {actions.length > 0 && (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-action`}>{t('editor.block.action')}</Label>
          <Select
            value={actionName ?? ''}
            disabled={readOnly}
            onValueChange={(name) => {
              const chosen = actions.find((candidate) => candidate.name === name)
              if (!chosen) return
              // Shared options stay; the previous action's own options go.
              const shared: Record<string, unknown> = {}
              for (const field of form.fields) {
                if (value[field.name] !== undefined) shared[field.name] = value[field.name]
              }
              change({ ...shared, ...defaultsOfFields(chosen.fields), action: name })
            }}
          >
            <SelectTrigger id={`${id}-action`} data-testid="block-action" className="w-full">
              <SelectValue placeholder={t('editor.block.chooseAction')} />
            </SelectTrigger>
            <SelectContent>
              {actions.map((candidate) => (
                <SelectItem key={candidate.name} value={candidate.name}>
                  {candidate.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {action?.description && <FieldHint>{action.description}</FieldHint>}
        </div>
      )}
      {fields.length > 0 && (
        <FormEditKey.Provider value={`block:${block.id}`}>
          {/* The plugin's own form.tsx when it ships one (a Test button, a slider). */}
          <CustomOrGeneratedForm
            slug={form.slug}
            fields={fields}
            value={value}
            onChange={change}
            readOnly={readOnly}
            variables={variables}
            credentials={credentials}
            idPrefix={`block-${block.id}`}
            testId="block-form"
            errors={formErrorsOf(issues)}
            VariableField={BotVariableField}
          />
        </FormEditKey.Provider>
      )}
      {form.items && <ItemsEditor block={block} plugin={plugin} readOnly={readOnly} />}
    </div>
  )
}

/** The bubble's text as the editor writes it (plainText), else as imported. */
function storedBubbleText(block: Block) {
  const plain = block.content?.plainText
  return typeof plain === 'string' ? plain : textBubbleText(block)
}

/**
 * Where a cursor goes when a text changes under it: unmoved before the change, moved by
 * the change's length after it, at the end of what was inserted inside it.
 */
function caretShift(previous: string, next: string) {
  const { start, removedEnd, inserted } = textChange(previous, next)
  const insertedEnd = start + inserted.length
  return (position: number) => {
    if (position <= start) return position
    if (position >= removedEnd) return position + next.length - previous.length
    return insertedEnd
  }
}

/** The one change (an insertion, a deletion or a replacement) that turns `previous` into `next`. */
function textChange(previous: string, next: string) {
  let start = 0
  const shortest = Math.min(previous.length, next.length)
  while (start < shortest && previous[start] === next[start]) start++
  let end = 0
  while (
    end < shortest - start &&
    previous[previous.length - 1 - end] === next[next.length - 1 - end]
  ) {
    end++
  }
  return {
    start,
    removedEnd: previous.length - end,
    inserted: next.slice(start, next.length - end),
  }
}

/** The change from `shown` to `typed`, made to `current` instead (`shown` plus others' edits). */
function rebase(shown: string, typed: string, current: string) {
  if (shown === current) return typed
  const change = textChange(shown, typed)
  const shift = caretShift(shown, current)
  const start = shift(change.start)
  const end = Math.max(start, shift(change.removedEnd))
  return current.slice(0, start) + change.inserted + current.slice(end)
}

/** `{{` and what follows it up to the cursor, while a variable name is being typed. */
const OPEN_REFERENCE = /\{\{([^{}\n]*)$/

function TextBubbleEditor({ block, readOnly }: { block: Block; readOnly: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const stored = storedBubbleText(block)
  const [text, setText] = useState(stored)
  const area = useRef<HTMLTextAreaElement>(null)
  // The text as this editor last wrote it: any other text in the store is someone else's.
  const written = useRef(stored)
  const keptSelection = useRef<{ start: number; end: number } | null>(null)
  useEffect(() => {
    if (stored === written.current) return
    // A colleague typed in this bubble (docs/editor.md "Editing together"): their text is
    // taken, and this person's cursor stays beside the characters it was beside.
    const element = area.current
    const previous = element?.value ?? written.current
    if (element && document.activeElement === element) {
      const shift = caretShift(previous, stored)
      keptSelection.current = {
        start: shift(element.selectionStart),
        end: shift(element.selectionEnd),
      }
    }
    written.current = stored
    setText(stored)
  }, [stored])
  useLayoutEffect(() => {
    const selection = keptSelection.current
    if (!selection) return
    keptSelection.current = null
    area.current?.setSelectionRange(selection.start, selection.end)
  }, [text])
  // Where the cursor was when the textarea lost focus to the Variables picker.
  const caret = useRef<{ start: number; end: number } | null>(null)
  const [query, setQuery] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const suggestions = query === null ? [] : suggestVariables(variables, query).slice(0, 8)
  const listId = `${id}-variables`

  function commit(next: string) {
    written.current = next
    setText(next)
    api.getState().edit(
      (bot) =>
        updateBlockContent(bot, block.id, (content) => ({
          ...content,
          plainText: next,
          richText: plainToRichText(next),
          html: undefined,
        })),
      { coalesceKey: `block:${block.id}` }
    )
  }

  /** Replaces text[start, end) with `insert` and puts the cursor after it. */
  function replace(start: number, end: number, insert: string) {
    const current = area.current?.value ?? text
    const next = current.slice(0, start) + insert + current.slice(end)
    commit(next)
    setQuery(null)
    const cursor = start + insert.length
    caret.current = { start: cursor, end: cursor }
    requestAnimationFrame(() => {
      area.current?.focus()
      area.current?.setSelectionRange(cursor, cursor)
    })
  }

  function readQuery(element: HTMLTextAreaElement) {
    const before = element.value.slice(0, element.selectionStart)
    const match = element.selectionStart === element.selectionEnd && OPEN_REFERENCE.exec(before)
    setQuery(match ? match[1] : null)
    setActive(0)
  }

  function choose(name: string) {
    const element = area.current
    if (!element) return
    const cursor = element.selectionStart
    const before = element.value.slice(0, cursor)
    const match = OPEN_REFERENCE.exec(before)
    if (!match) return
    // A closing }} typed already after the cursor is kept, not doubled.
    const closes = element.value.slice(cursor).startsWith('}}') ? 2 : 0
    replace(cursor - match[0].length, cursor + closes, `{{${name}}}`)
  }

  // The panel's Variables picker puts {{a name}} where the builder was typing: the bubble
  // is its target from the start (it is the only field), and again when focused.
  const registerInsertion = useRegisterInsertion((name) => {
    if (readOnly) return
    const current = area.current?.value ?? ''
    const at = caret.current ?? { start: current.length, end: current.length }
    replace(at.start, at.end, `{{${name}}}`)
  })
  useEffect(() => registerInsertion(), [registerInsertion])

  const open = suggestions.length > 0 && !readOnly
  return (
    <div className="relative grid gap-2">
      <Label htmlFor={id}>{t('editor.block.text')}</Label>
      <Textarea
        ref={area}
        id={id}
        data-testid="text-bubble-input"
        value={text}
        readOnly={readOnly}
        rows={5}
        placeholder={t('editor.block.textPlaceholder')}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          // What was typed goes into the text as it is now, which a colleague may have
          // changed since this textarea last showed it.
          const element = event.target
          const now = locateBlock(api.getState().history.present, block.id)?.block
          const next = rebase(text, element.value, now ? storedBubbleText(now) : text)
          if (next !== element.value) {
            const cursor = caretShift(element.value, next)(element.selectionStart)
            keptSelection.current = { start: cursor, end: cursor }
          }
          commit(next)
          readQuery(element)
        }}
        onSelect={(event) => {
          const element = event.currentTarget
          caret.current = { start: element.selectionStart, end: element.selectionEnd }
        }}
        onBlur={() => setQuery(null)}
        onFocus={registerInsertion}
        onKeyDown={(event) => {
          if (!open) return
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault()
            const step = event.key === 'ArrowDown' ? 1 : -1
            setActive((active + step + suggestions.length) % suggestions.length)
          } else if (event.key === 'Enter' || event.key === 'Tab') {
            event.preventDefault()
            choose(suggestions[active].name)
          } else if (event.key === 'Escape') {
            // The panel closes on Escape otherwise: only the list goes.
            event.preventDefault()
            event.stopPropagation()
            setQuery(null)
          }
        }}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          data-testid="bubble-variable-suggestions"
          aria-label={t('editorCanvas.variables.suggestions')}
          className="absolute top-full right-0 left-0 z-20 -mt-6 max-h-56 overflow-y-auto rounded-md border bg-popover p-1 text-sm shadow-md"
        >
          {suggestions.map((variable, index) => (
            <li
              key={variable.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              data-testid="bubble-variable-suggestion"
              className={cn(
                'cursor-pointer rounded-sm px-2 py-1',
                index === active && 'bg-accent text-accent-foreground'
              )}
              // mousedown, not click: the textarea keeps its focus and cursor.
              onMouseDown={(event) => {
                event.preventDefault()
                choose(variable.name)
              }}
            >
              {variable.name}
            </li>
          ))}
        </ul>
      )}
      <FieldHint>{t('editorCanvas.variables.bubbleHint')}</FieldHint>
    </div>
  )
}

function ItemsEditor({
  block,
  plugin,
  readOnly,
}: {
  block: Block
  plugin: EditorPlugin
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const [refusal, setRefusal] = useState<string | null>(null)
  const issues = useBotEditor((state) => state.issues[block.id])
  const itemsForm = plugin.form.items!
  const items = block.items ?? []
  const floor = Math.max(1, itemsForm.min ?? 1)
  const atMax = itemsForm.max !== undefined && items.length >= itemsForm.max
  const atMin = items.length <= floor
  const edit = api.getState().edit
  const floorMessage =
    floor > 1 ? t('editor.items.minItems', { count: floor }) : t('editor.items.lastItem')

  function remove(item: Item) {
    let reason: string | null = null
    edit((bot) => {
      const result = deleteItem(bot, block.id, item.id, { minItems: itemsForm.min })
      if (!result.deleted && result.reason === 'last-item') reason = 'last'
      return result.bot
    })
    setRefusal(reason ? floorMessage : null)
  }

  return (
    <section className="grid gap-3" data-testid="items-editor">
      <h3 className="text-sm font-semibold">{t('editor.items.title')}</h3>
      <ol className="grid gap-3">
        {items.map((item, index) => {
          const value: Record<string, unknown> = { ...item }
          delete value.id
          delete value.blockId
          delete value.outgoingEdgeId
          return (
            <li
              key={item.id}
              className="grid gap-2 rounded-lg border p-3"
              data-testid="item-editor"
            >
              <div className="flex items-center justify-between">
                <span className="text-xs font-medium text-muted-foreground">
                  {t('editor.items.item', { number: index + 1 })}
                </span>
                {!readOnly && (
                  <button
                    type="button"
                    data-testid="item-delete"
                    aria-label={t('editor.items.delete')}
                    aria-disabled={atMin || undefined}
                    title={atMin ? floorMessage : undefined}
                    onClick={() => remove(item)}
                    className="rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring/50 aria-disabled:opacity-50"
                  >
                    <Trash2Icon className="size-3.5" />
                  </button>
                )}
              </div>
              <FormEditKey.Provider value={`item:${item.id}`}>
                <PluginForm
                  fields={itemsForm.fields}
                  value={value}
                  readOnly={readOnly}
                  variables={variables}
                  idPrefix={`item-${item.id}`}
                  errors={formErrorsOf(issues, `items.${index}`)}
                  VariableField={BotVariableField}
                  onChange={(next) =>
                    edit((bot) => updateItem(bot, block.id, item.id, next), {
                      coalesceKey: `item:${item.id}`,
                    })
                  }
                />
              </FormEditKey.Provider>
            </li>
          )
        })}
      </ol>
      {refusal && (
        <p role="alert" data-testid="item-refusal" className="text-sm text-destructive">
          {refusal}
        </p>
      )}
      {!readOnly && !atMax && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          data-testid="item-add"
          onClick={() => {
            setRefusal(null)
            edit((bot) => addItem(bot, block.id, {}, { maxItems: itemsForm.max }).bot)
          }}
        >
          <PlusIcon /> {t('editor.items.add')}
        </Button>
      )}
    </section>
  )
}
