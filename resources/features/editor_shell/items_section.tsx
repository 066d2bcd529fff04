import { useState, type ComponentProps, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { FieldHint } from '~/components/ui/label'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import { formErrorsOf } from '~/features/plugin_form/issues'
import type { FormDescription } from '~/features/plugin_form/types'
import { useSettingsSurface, type EditorSurface, type SettingsTarget } from './item_settings'

/** The test ids and texts of a surface's repeated items, which its tests and docs name. */
interface ItemTexts {
  /** Of one item and its controls: `item-editor`, `branch-add`. */
  item: string
  /** Of the section: `items-editor`. */
  items: string
  title: string
  hint?: string
  /** An item's label and its delete button's, given the item's number. */
  label: string
  delete: string
  add: string
  /** Why deleting the last item was refused. */
  lastItem: string
  /** Why a delete was refused where the plugin wants more than one item. */
  minItems?: string
  /** The refused delete button tells why as its title too. */
  refusalAsTitle: boolean
  /** The attribute that carries an item's id on its element. */
  idAttribute?: string
}

const TEXTS: Record<EditorSurface, ItemTexts> = {
  bot: {
    item: 'item',
    items: 'items',
    title: 'editor.items.title',
    label: 'editor.items.item',
    delete: 'editor.items.delete',
    add: 'editor.items.add',
    lastItem: 'editor.items.lastItem',
    minItems: 'editor.items.minItems',
    refusalAsTitle: true,
  },
  workflow: {
    item: 'branch',
    items: 'branches',
    title: 'workflowEditor.branches.title',
    hint: 'workflowEditor.branches.hint',
    label: 'workflowEditor.node.branch',
    delete: 'workflowEditor.branches.delete',
    add: 'workflowEditor.branches.add',
    lastItem: 'workflowEditor.branches.lastBranch',
    refusalAsTitle: false,
    idAttribute: 'data-condition-id',
  },
}

/** One of the repeated items as its surface gives it: its id and its form's value. */
export interface EditedItem {
  id: string
  value: Record<string, unknown>
}

/**
 * The repeated items of a block or node (a bot block's items, a condition's branches): each
 * with its number, delete button and form, then why a delete was refused and the add
 * button. The fewest and most items are the plugin's; the surface makes the edits.
 */
export function ItemsSection({
  form,
  items,
  issues,
  wrapItem = (_id, node) => node,
  onChange,
  onDelete,
  onAdd,
}: {
  /** What the plugin's form says of its items: their fields, the fewest and most. */
  form: NonNullable<FormDescription['items']>
  items: EditedItem[]
  /** The block's issues where the surface checks its items: an item's under `items.<index>`. */
  issues?: SettingsTarget['issues']
  /** Puts an item's form inside what the surface needs around it (a context provider). */
  wrapItem?: (id: string, form: ReactNode) => ReactNode
  onChange: (id: string, next: Record<string, unknown>) => void
  /** Deletes the item, or says it was refused (the fewest items the plugin allows). */
  onDelete: (id: string) => { refused: boolean }
  onAdd: () => void
}) {
  const { t } = useTranslation()
  const { surface, readOnly, variables, VariableField } = useSettingsSurface()
  const [refused, setRefused] = useState(false)
  const texts = TEXTS[surface]
  const floor = Math.max(1, form.min ?? 1)
  const atMax = form.max !== undefined && items.length >= form.max
  const atMin = items.length <= floor
  const refusal =
    floor > 1 && texts.minItems ? t(texts.minItems, { count: floor }) : t(texts.lastItem)

  return (
    <section className="grid gap-3" data-testid={`${texts.items}-editor`}>
      {texts.hint ? (
        <div>
          <h3 className="text-sm font-semibold">{t(texts.title)}</h3>
          <FieldHint>{t(texts.hint)}</FieldHint>
        </div>
      ) : (
        <h3 className="text-sm font-semibold">{t(texts.title)}</h3>
      )}
      <ol className="grid gap-3">
        {items.map((item, index) => (
          <EditableItem
            key={item.id}
            surface={surface}
            {...(texts.idAttribute && { [texts.idAttribute]: item.id })}
            label={t(texts.label, { number: index + 1 })}
            deleteLabel={t(texts.delete, { number: index + 1 })}
            deleteRefused={atMin}
            refusedHint={texts.refusalAsTitle ? refusal : undefined}
            readOnly={readOnly}
            onDelete={() => setRefused(onDelete(item.id).refused)}
          >
            {wrapItem(
              item.id,
              <PluginForm
                fields={form.fields}
                value={item.value}
                readOnly={readOnly}
                variables={variables}
                idPrefix={`${texts.item}-${item.id}`}
                errors={issues && formErrorsOf(issues, `items.${index}`)}
                VariableField={VariableField}
                onChange={(next) => onChange(item.id, next)}
              />
            )}
          </EditableItem>
        ))}
      </ol>
      <ItemsFooter
        surface={surface}
        refusal={refused ? refusal : null}
        canAdd={!readOnly && !atMax}
        addLabel={t(texts.add)}
        onAdd={() => {
          setRefused(false)
          onAdd()
        }}
      />
    </section>
  )
}

/** One of the repeated items (a block's item, a node's branch): its number, delete, form. */
function EditableItem({
  surface,
  label,
  deleteLabel,
  deleteRefused,
  refusedHint,
  readOnly,
  onDelete,
  children,
  ...attributes
}: {
  surface: EditorSurface
  label: string
  deleteLabel: string
  /** Deleting it is refused (the fewest items the plugin allows): shown, still clickable. */
  deleteRefused: boolean
  refusedHint?: string
  readOnly: boolean
  onDelete: () => void
  children: ReactNode
} & Omit<ComponentProps<'li'>, 'children'>) {
  const item = TEXTS[surface].item
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid={`${item}-editor`} {...attributes}>
      <div className="flex items-center justify-between">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        {!readOnly && (
          <button
            type="button"
            data-testid={`${item}-delete`}
            aria-label={deleteLabel}
            aria-disabled={deleteRefused || undefined}
            title={deleteRefused ? refusedHint : undefined}
            onClick={onDelete}
            className="rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring/50 aria-disabled:opacity-50"
          >
            <Trash2Icon className="size-3.5" />
          </button>
        )}
      </div>
      {children}
    </li>
  )
}

/** Under the items: why the last delete was refused, and the button that adds one. */
function ItemsFooter({
  surface,
  refusal,
  canAdd,
  addLabel,
  onAdd,
}: {
  surface: EditorSurface
  refusal: string | null
  canAdd: boolean
  addLabel: string
  onAdd: () => void
}) {
  const item = TEXTS[surface].item
  return (
    <>
      {refusal && (
        <p role="alert" data-testid={`${item}-refusal`} className="text-sm text-destructive">
          {refusal}
        </p>
      )}
      {canAdd && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          data-testid={`${item}-add`}
          onClick={onAdd}
        >
          <PlusIcon /> {addLabel}
        </Button>
      )}
    </>
  )
}
