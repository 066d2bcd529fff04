import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  type RefObject,
} from 'react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import {
  addItem,
  createVariable,
  deleteItem,
  updateBlockContent,
  updateBlockOptions,
  updateItem,
} from '#shared/bot/editing'
import { locateBlock } from '#shared/bot/graph'
import type { Block } from '#shared/bot/types'
import { FieldHint, Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { useExpressionCompletion } from '~/features/plugin_form/expression_input'
import {
  ExpressionScopeContext,
  useExpressionScope,
  type ExpressionScope,
} from '~/features/plugin_form/expressions'
import type { VariableFieldProps } from '~/features/plugin_form/types'
import {
  useInsertionTarget,
  useRegisterInsertion,
  VariableInsertion,
} from '~/features/plugin_form/variable_insertion'
import {
  PluginSettingsForm,
  SettingsPanel,
  useSettingsPanel,
} from '~/features/editor_shell/item_settings'
import { ItemsSection } from '~/features/editor_shell/items_section'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { plainToRichText, textBubbleText } from './block_summary'
import { useEditorPlugin } from './editor_plugins'
import { useSharedText } from '~/features/editor_shell/shared_text'
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
  const close = useCallback(() => api.getState().openBlock(null), [api])
  const workspaceId = useBotEditor((state) => state.history.present.workspaceId)
  const variables = useFormVariables()
  // The variable fields of the block's forms pick or create a variable (BotVariableField).
  const panel = useSettingsPanel(
    { surface: 'bot', workspaceId, readOnly, variables, VariableField: BotVariableField },
    openBlockId,
    !!block,
    close
  )
  // The field the Variables picker inserts into: the text bubble, a code or value editor.
  const insertion = useInsertionTarget()
  const scope = useBotExpressionScope()

  useKeptClearOfPanel(panel.ref, openBlockId)

  if (!block) return null

  return (
    <SettingsPanel
      panel={panel}
      type={block.type}
      plugin={plugin}
      aria-label={t('editor.block.settings')}
    >
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
    </SettingsPanel>
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
  const api = useBotEditorApi()
  const form = plugin.form
  const edit = api.getState().edit
  const issues = useBotEditor((state) => state.issues[block.id])

  if (block.type === 'text') return <TextBubbleEditor block={block} readOnly={readOnly} />

  const inContent = form.storedIn === 'content'
  const value = (inContent ? block.content : block.options) ?? {}
  const write = (next: Record<string, unknown>) =>
    edit(
      (bot) =>
        inContent
          ? updateBlockContent(bot, block.id, () => next)
          : updateBlockOptions(bot, block.id, () => next),
      { coalesceKey: `block:${block.id}` }
    )

  return (
    <PluginSettingsForm
      target={{ id: block.id, value, write, issues }}
      form={form}
      wrapForm={(generated) => (
        <FormEditKey.Provider value={`block:${block.id}`}>{generated}</FormEditKey.Provider>
      )}
    >
      {form.items && <ItemsEditor block={block} plugin={plugin} />}
      {plugin.category === 'input' && <ReplyTimeoutField block={block} readOnly={readOnly} />}
    </PluginSettingsForm>
  )
}

function TextBubbleEditor({ block, readOnly }: { block: Block; readOnly: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useFormVariables()
  const scope = useExpressionScope(variables)
  const area = useRef<HTMLTextAreaElement>(null)
  const shared = useSharedText(textBubbleText(block), area)
  const text = shared.text
  // Where the cursor was when the textarea lost focus to the Variables picker.
  const caret = useRef<{ start: number; end: number } | null>(null)

  function commit(next: string) {
    shared.written(next)
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
            const now = locateBlock(api.getState().history.present, block.id)?.block
            commit(shared.typed(event.target, now ? textBubbleText(now) : text))
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

/** The block's items: the plugin's item form for each, and the bot's edits of them. */
function ItemsEditor({ block, plugin }: { block: Block; plugin: EditorPlugin }) {
  const api = useBotEditorApi()
  const issues = useBotEditor((state) => state.issues[block.id])
  const itemsForm = plugin.form.items!
  const edit = api.getState().edit
  // What an item's form edits: its own fields, not the ids the bot links it by.
  const items = (block.items ?? []).map((item) => {
    const value: Record<string, unknown> = { ...item }
    delete value.id
    delete value.blockId
    delete value.outgoingEdgeId
    return { id: item.id, value }
  })

  return (
    <ItemsSection
      form={itemsForm}
      items={items}
      issues={issues}
      wrapItem={(id, form) => (
        <FormEditKey.Provider value={`item:${id}`}>{form}</FormEditKey.Provider>
      )}
      onChange={(id, next) =>
        edit((bot) => updateItem(bot, block.id, id, next), { coalesceKey: `item:${id}` })
      }
      onDelete={(id) => {
        let refused = false
        edit((bot) => {
          const result = deleteItem(bot, block.id, id, { minItems: itemsForm.min })
          refused = !result.deleted && result.reason === 'last-item'
          return result.bot
        })
        return { refused }
      }}
      onAdd={() => edit((bot) => addItem(bot, block.id, {}, { maxItems: itemsForm.max }).bot)}
    />
  )
}
