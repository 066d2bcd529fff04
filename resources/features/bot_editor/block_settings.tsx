import {
  createContext,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import {
  addItem,
  createVariable,
  deleteItem,
  updateBlockContent,
  updateBlockOptions,
  updateItem,
} from '#shared/bot/editing'
import { locateBlock } from '#shared/bot/graph'
import type { Block, Item } from '#shared/bot/types'
import { Button } from '~/components/ui/button'
import { FieldHint, Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
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
import { useExpressionCompletion } from '~/features/plugin_form/expression_input'
import {
  ExpressionScopeContext,
  useExpressionScope,
  type ExpressionScope,
} from '~/features/plugin_form/expressions'
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
import { ReplyTimeoutField } from './reply_timeout_field'
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
  const scope = useBotExpressionScope()

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
          <ExpressionScopeContext.Provider value={scope}>
            {plugin ? (
              <BlockForm key={block.id} block={block} plugin={plugin} readOnly={readOnly} />
            ) : (
              <p className="text-sm text-muted-foreground">{t('editor.block.unknownPlugin')}</p>
            )}
          </ExpressionScopeContext.Provider>
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

/**
 * What `{{` completes in the block's fields: the bot's variables, and "Create variable"
 * for a name none has (docs/workflows.md, "Expressions").
 */
function useBotExpressionScope(): ExpressionScope {
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const readOnly = useBotEditor((state) => state.readOnly)
  return useMemo(
    () => ({
      variables,
      createVariable: readOnly
        ? undefined
        : (name: string) => {
            let made: { id: string; name: string } | undefined
            api.getState().edit((bot) => {
              const result = createVariable(bot, name)
              made = result.variable
              return result.bot
            })
            return made
          },
    }),
    [api, variables, readOnly]
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
      {plugin.category === 'input' && <ReplyTimeoutField block={block} readOnly={readOnly} />}
    </div>
  )
}

function TextBubbleEditor({ block, readOnly }: { block: Block; readOnly: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const scope = useExpressionScope(variables)
  const [text, setText] = useState(() => textBubbleText(block))
  const area = useRef<HTMLTextAreaElement>(null)
  // Where the cursor was when the textarea lost focus to the Variables picker.
  const caret = useRef<{ start: number; end: number } | null>(null)

  function commit(next: string) {
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

  /** Puts the new text in and the cursor at `cursor`. */
  function place(next: string, cursor: number) {
    commit(next)
    caret.current = { start: cursor, end: cursor }
    requestAnimationFrame(() => {
      area.current?.focus()
      area.current?.setSelectionRange(cursor, cursor)
    })
  }

  const completion = useExpressionCompletion({
    scope,
    readOnly,
    element: area,
    replace: place,
    testId: 'bubble-variable-suggestions',
    optionTestId: 'bubble-variable-suggestion',
  })

  // The panel's Variables picker puts {{a name}} where the builder was typing: the bubble
  // is its target from the start (it is the only field), and again when focused.
  const registerInsertion = useRegisterInsertion((name) => {
    if (readOnly) return
    const current = area.current?.value ?? ''
    const at = caret.current ?? { start: current.length, end: current.length }
    const insert = `{{${name}}}`
    place(current.slice(0, at.start) + insert + current.slice(at.end), at.start + insert.length)
  })
  useEffect(() => registerInsertion(), [registerInsertion])

  return (
    <div className="relative grid gap-2">
      <Label htmlFor={id}>{t('editor.block.text')}</Label>
      <div className="relative">
        <Textarea
          ref={area}
          id={id}
          data-testid="text-bubble-input"
          value={text}
          readOnly={readOnly}
          rows={5}
          placeholder={t('editor.block.textPlaceholder')}
          {...completion.fieldProps}
          onChange={(event) => {
            commit(event.target.value)
            completion.read(event.target)
          }}
          onSelect={(event) => {
            const element = event.currentTarget
            caret.current = { start: element.selectionStart, end: element.selectionEnd }
          }}
          onFocus={registerInsertion}
        />
        {completion.list}
      </div>
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
