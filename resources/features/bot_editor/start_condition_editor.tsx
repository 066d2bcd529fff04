import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import type { Comparison, ConditionContent } from '#shared/bot/types'
// Browser-safe: the operator lists live beside the field DSL, which imports nothing.
import { COMPARISON_OPERATORS, UNARY_OPERATORS } from '../../../app/plugins/common_fields'
import { Button } from '~/components/ui/button'
import { Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { createItemId } from '~/features/plugin_form/values'
import { ExpressionInput } from '~/features/plugin_form/expression_input'
import { useBotEditor } from './bot_editor_store'
import { useBotValue, useBotWriter, useReadOnly, type Path } from './bot_paths'

/** i18n keys of the operators (the stored values are the format's English names). */
export const OPERATOR_KEYS: Record<(typeof COMPARISON_OPERATORS)[number], string> = {
  'Equal to': 'equal',
  'Not equal': 'notEqual',
  'Contains': 'contains',
  'Does not contain': 'notContains',
  'Greater than': 'greater',
  'Less than': 'less',
  'Greater or equal to': 'greaterOrEqual',
  'Less or equal to': 'lessOrEqual',
  'Is set': 'isSet',
  'Is empty': 'isEmpty',
  'Starts with': 'startsWith',
  'Ends with': 'endsWith',
  'Matches regex': 'matchesRegex',
  'Does not match regex': 'notMatchesRegex',
}

const UNARY = new Set<string>(UNARY_OPERATORS)

/**
 * A channel's start condition (settings.whatsApp|telegram.startCondition): comparisons of
 * a variable with a value, joined by AND or OR, like the items of a Condition block. The
 * channel starts the bot only when the condition holds; no comparison means always.
 */
export function StartConditionEditor({ path, testId }: { path: Path; testId: string }) {
  const { t } = useTranslation()
  const readOnly = useReadOnly()
  const condition = useBotValue<ConditionContent>('settings', path)
  const write = useBotWriter('settings')
  const comparisons = condition?.comparisons ?? []
  const logicalOperator = condition?.logicalOperator ?? 'AND'

  function update(next: Comparison[], operator = logicalOperator) {
    write([[path, next.length ? { comparisons: next, logicalOperator: operator } : undefined]])
  }

  return (
    <fieldset className="grid gap-3" data-testid={testId} disabled={readOnly}>
      <legend className="mb-1 text-sm font-medium">{t('botSettings.condition.title')}</legend>
      <p className="text-xs text-muted-foreground">{t('botSettings.condition.hint')}</p>
      {comparisons.map((comparison, index) => (
        <div key={comparison.id ?? index} className="grid gap-2">
          {index > 0 && (
            <JoinSelect
              value={logicalOperator}
              testId={`${testId}-logical`}
              onChange={(operator) => update(comparisons, operator)}
            />
          )}
          <ComparisonRow
            comparison={comparison}
            testId={`${testId}-comparison`}
            onChange={(next) => update(comparisons.map((item, i) => (i === index ? next : item)))}
            onRemove={() => update(comparisons.filter((_, i) => i !== index))}
          />
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-self-start"
        data-testid={`${testId}-add`}
        onClick={() =>
          update([
            ...comparisons,
            { id: createItemId(), comparisonOperator: 'Equal to', value: '' },
          ])
        }
      >
        <PlusIcon /> {t('botSettings.condition.add')}
      </Button>
    </fieldset>
  )
}

function JoinSelect({
  value,
  testId,
  onChange,
}: {
  value: 'AND' | 'OR'
  testId: string
  onChange: (value: 'AND' | 'OR') => void
}) {
  const { t } = useTranslation()
  const readOnly = useReadOnly()
  return (
    <Select
      value={value}
      disabled={readOnly}
      onValueChange={(next) => onChange(next as 'AND' | 'OR')}
    >
      <SelectTrigger
        size="sm"
        className="w-24 justify-self-center"
        aria-label={t('botSettings.condition.joinedBy')}
        data-testid={testId}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="AND">{t('botSettings.condition.and')}</SelectItem>
        <SelectItem value="OR">{t('botSettings.condition.or')}</SelectItem>
      </SelectContent>
    </Select>
  )
}

function ComparisonRow({
  comparison,
  testId,
  onChange,
  onRemove,
}: {
  comparison: Comparison
  testId: string
  onChange: (next: Comparison) => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const readOnly = useReadOnly()
  const variables = useBotEditor((state) => state.history.present.variables)
  const operator = comparison.comparisonOperator ?? 'Equal to'
  return (
    <div
      className="grid grid-cols-[1fr_1fr_1fr_auto] items-end gap-2 rounded-lg border bg-muted/30 p-2"
      data-testid={testId}
    >
      <div className="grid gap-1">
        <Label htmlFor={`${id}-variable`} className="text-xs">
          {t('botSettings.condition.variable')}
        </Label>
        <Select
          value={comparison.variableId ?? ''}
          disabled={readOnly || variables.length === 0}
          onValueChange={(variableId) => onChange({ ...comparison, variableId })}
        >
          <SelectTrigger
            id={`${id}-variable`}
            size="sm"
            className="w-full"
            data-testid={`${testId}-variable`}
          >
            <SelectValue
              placeholder={
                variables.length
                  ? t('botSettings.condition.pickVariable')
                  : t('botSettings.condition.noVariables')
              }
            />
          </SelectTrigger>
          <SelectContent>
            {variables.map((variable) => (
              <SelectItem key={variable.id} value={variable.id}>
                {variable.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-operator`} className="text-xs">
          {t('botSettings.condition.operator')}
        </Label>
        <Select
          value={operator}
          disabled={readOnly}
          onValueChange={(next) =>
            onChange({
              ...comparison,
              comparisonOperator: next,
              // 'Is set' and 'Is empty' compare nothing.
              value: UNARY.has(next) ? undefined : (comparison.value ?? ''),
            })
          }
        >
          <SelectTrigger
            id={`${id}-operator`}
            size="sm"
            className="w-full"
            data-testid={`${testId}-operator`}
          >
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {COMPARISON_OPERATORS.map((value) => (
              <SelectItem key={value} value={value}>
                {t(`botSettings.operators.${OPERATOR_KEYS[value]}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-value`} className="text-xs">
          {t('botSettings.condition.value')}
        </Label>
        {/* The value may name variables ({{City}}): `{{` completes them. */}
        <ExpressionInput
          id={`${id}-value`}
          data-testid={`${testId}-value`}
          className="[&_input]:h-8"
          scope={{ variables }}
          value={comparison.value ?? ''}
          disabled={readOnly || UNARY.has(operator)}
          placeholder={t('botSettings.condition.valuePlaceholder')}
          onChange={(value) => onChange({ ...comparison, value })}
        />
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon-sm"
        data-testid={`${testId}-remove`}
        aria-label={t('botSettings.condition.remove')}
        disabled={readOnly}
        onClick={onRemove}
      >
        <Trash2Icon />
      </Button>
    </div>
  )
}
