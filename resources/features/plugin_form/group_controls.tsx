import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import { Input } from '~/components/ui/input'
import { Button } from '~/components/ui/button'
import { FieldError } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { cn } from '~/lib/utils'
import { asArray, asRecord, createItemId, defaultsOfFields, hasErrorWithin } from './values'
import { ExpressionInput } from './expression_input'
import { capitalize, textOf, type ControlProps } from './form_context'
import { VariableControl } from './choice_controls'
import { FieldList } from './plugin_form'

/**
 * The controls of the generated form drawn as a group of rows: lists of items, objects,
 * key/value pairs and response mappings. They draw their rows' fields with FieldList, the
 * form's own recursion (plugin_form.tsx imports these controls and they import it back;
 * both are only called at render time).
 */

export function ListControl({ field, path, value, onChange, ctx, id, testId }: ControlProps) {
  const { t } = useTranslation()
  const items = asArray(value)
  const itemFields = field.itemFields ?? []
  const itemLabel = field.itemLabel ?? t('pluginForm.item')
  const canRemove = !ctx.readOnly && items.length > (field.min ?? 0)
  const canAdd = !ctx.readOnly && (field.max === undefined || items.length < field.max)

  function replace(index: number, next: Record<string, unknown>) {
    onChange(items.map((item, i) => (i === index ? next : item)))
  }

  return (
    <div className="grid gap-3" data-testid={testId}>
      {items.map((item, index) => {
        const title = `${capitalize(itemLabel)} ${index + 1}`
        const titleId = `${id}-${index}-title`
        const itemRecord = asRecord(item)
        return (
          <div
            key={typeof itemRecord.id === 'string' ? itemRecord.id : index}
            role="group"
            aria-labelledby={titleId}
            className={cn(
              'grid gap-4 rounded-md border p-3',
              hasErrorWithin(ctx.errors, `${path}.${index}`) && 'border-destructive/60'
            )}
            data-testid="list-item"
          >
            <div className="flex items-center justify-between gap-2">
              <span id={titleId} className="text-xs font-semibold text-muted-foreground uppercase">
                {title}
              </span>
              {canRemove && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeItem', { label: title })}
                  onClick={() => onChange(items.filter((_, i) => i !== index))}
                  data-testid="list-item-remove"
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldList
              fields={itemFields}
              value={itemRecord}
              path={`${path}.${index}`}
              onChange={(next) => replace(index, next)}
              ctx={ctx}
            />
          </div>
        )
      })}
      {canAdd && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          data-testid="list-add"
          onClick={() =>
            onChange([...items, { id: createItemId(), ...defaultsOfFields(itemFields) }])
          }
        >
          <PlusIcon aria-hidden />
          {t('pluginForm.addItem', { label: itemLabel })}
        </Button>
      )}
    </div>
  )
}

export function ObjectControl({ field, path, value, onChange, ctx, testId }: ControlProps) {
  return (
    <div className="grid gap-4 border-l-2 pl-4" data-testid={testId}>
      <FieldList
        fields={field.fields ?? []}
        value={asRecord(value)}
        path={path}
        onChange={onChange}
        ctx={ctx}
      />
    </div>
  )
}

/** A remove button and an add button around rows of inputs (key/value, mappings). */
function RowsFooter({
  canAdd,
  onAdd,
  addLabel,
  testId,
}: {
  canAdd: boolean
  onAdd: () => void
  addLabel: string
  testId: string
}) {
  if (!canAdd) return null
  return (
    <Button
      variant="outline"
      size="sm"
      className="justify-self-start"
      onClick={onAdd}
      data-testid={testId}
    >
      <PlusIcon aria-hidden />
      {addLabel}
    </Button>
  )
}

interface Row {
  id?: string
  [key: string]: unknown
}

function updateRow(rows: Row[], index: number, key: string, next: unknown) {
  return rows.map((row, i) => {
    if (i !== index) return row
    const copy = { ...row }
    if (next === undefined || next === '') delete copy[key]
    else copy[key] = next
    return copy
  })
}

export function KeyValueControl({ field, path, value, onChange, ctx, testId }: ControlProps) {
  const { t } = useTranslation()
  const rows = asArray<Row>(value)
  const keyLabel = field.keyLabel ?? t('pluginForm.key')
  const valueLabel = field.valueLabel ?? t('pluginForm.value')
  return (
    <div className="grid gap-2" data-testid={testId}>
      {rows.length > 0 && (
        <div
          aria-hidden
          className="grid grid-cols-[1fr_1fr_2rem] gap-2 text-xs text-muted-foreground"
        >
          <span>{keyLabel}</span>
          <span>{valueLabel}</span>
        </div>
      )}
      {rows.map((row, index) => {
        const keyError = ctx.errors[`${path}.${index}.key`]
        const valueError = ctx.errors[`${path}.${index}.value`]
        return (
          <div key={row.id ?? index} className="grid gap-1" data-testid="key-value-row">
            <div className="grid grid-cols-[1fr_1fr_2rem] items-center gap-2">
              <ExpressionInput
                scope={ctx.scope}
                value={textOf(row.key)}
                readOnly={ctx.readOnly}
                aria-label={`${keyLabel} ${index + 1}`}
                aria-invalid={!!keyError || undefined}
                onChange={(text) => onChange(updateRow(rows, index, 'key', text))}
                data-testid="key-input"
              />
              <ExpressionInput
                scope={ctx.scope}
                value={textOf(row.value)}
                readOnly={ctx.readOnly}
                aria-label={`${valueLabel} ${index + 1}`}
                aria-invalid={!!valueError || undefined}
                onChange={(text) => onChange(updateRow(rows, index, 'value', text))}
                data-testid="value-input"
              />
              {!ctx.readOnly && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeRow', { index: index + 1 })}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldError>{keyError ?? valueError}</FieldError>
          </div>
        )
      })}
      <RowsFooter
        canAdd={!ctx.readOnly}
        onAdd={() => onChange([...rows, { id: createItemId() }])}
        addLabel={t('pluginForm.addRow')}
        testId="key-value-add"
      />
    </div>
  )
}

export function ResponseMappingControl({
  field,
  path,
  value,
  onChange,
  ctx,
  testId,
}: ControlProps) {
  const { t } = useTranslation()
  const rows = asArray<Row>(value)
  const sourceKey = field.key ?? 'bodyPath'
  const from = field.from ?? []
  return (
    <div className="grid gap-2" data-testid={testId}>
      {rows.length > 0 && (
        <div
          aria-hidden
          className="grid grid-cols-[1fr_1fr_2rem] gap-2 text-xs text-muted-foreground"
        >
          <span>{t('pluginForm.mappingSource')}</span>
          <span>{t('pluginForm.mappingVariable')}</span>
        </div>
      )}
      {rows.map((row, index) => {
        const sourceLabel = `${t('pluginForm.mappingSource')} ${index + 1}`
        const error =
          ctx.errors[`${path}.${index}.${sourceKey}`] ?? ctx.errors[`${path}.${index}.variableId`]
        const source = textOf(row[sourceKey])
        return (
          <div key={row.id ?? index} className="grid gap-1" data-testid="mapping-row">
            <div className="grid grid-cols-[1fr_1fr_2rem] items-center gap-2">
              {from.length > 0 ? (
                <Select
                  value={source}
                  onValueChange={(next) => onChange(updateRow(rows, index, sourceKey, next))}
                  disabled={ctx.readOnly}
                >
                  <SelectTrigger
                    className="w-full"
                    aria-label={sourceLabel}
                    data-testid="mapping-source"
                  >
                    <SelectValue placeholder={t('pluginForm.choose')} />
                  </SelectTrigger>
                  <SelectContent>
                    {source !== '' && !from.includes(source) && (
                      <SelectItem value={source}>{source}</SelectItem>
                    )}
                    {from.map((option) => (
                      <SelectItem key={option} value={option}>
                        {option}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              ) : (
                <Input
                  value={source}
                  readOnly={ctx.readOnly}
                  aria-label={sourceLabel}
                  placeholder={t('pluginForm.bodyPathPlaceholder')}
                  onChange={(e) => onChange(updateRow(rows, index, sourceKey, e.target.value))}
                  className="font-mono"
                  data-testid="mapping-source"
                />
              )}
              <VariableControl
                ctx={ctx}
                value={row.variableId}
                onChange={(next) => onChange(updateRow(rows, index, 'variableId', next))}
                disabled={ctx.readOnly}
                ariaLabel={`${t('pluginForm.mappingVariable')} ${index + 1}`}
                testId="mapping-variable"
              />
              {!ctx.readOnly && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeRow', { index: index + 1 })}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldError>{error}</FieldError>
          </div>
        )
      })}
      <RowsFooter
        canAdd={!ctx.readOnly}
        onAdd={() => onChange([...rows, { id: createItemId() }])}
        addLabel={t('pluginForm.addMapping')}
        testId="mapping-add"
      />
    </div>
  )
}
