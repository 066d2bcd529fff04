/**
 * Field groups several core blocks share (conditions, display conditions, the answer
 * variable of inputs). Browser-safe like fields.ts: manifests import it.
 */
import { field } from './fields.js'

/** The 12 comparison operators builders pick from, in the picker's order, plus the two inclusive ones. */
export const COMPARISON_OPERATORS = [
  'Equal to',
  'Not equal',
  'Contains',
  'Does not contain',
  'Greater than',
  'Less than',
  'Greater or equal to',
  'Less or equal to',
  'Is set',
  'Is empty',
  'Starts with',
  'Ends with',
  'Matches regex',
  'Does not match regex',
] as const

export const LOGICAL_OPERATORS = ['AND', 'OR'] as const

export const UNARY_OPERATORS = ['Is set', 'Is empty'] as const

/** A list of comparisons joined by AND or OR, as stored by Condition items. */
export function conditionFields() {
  return {
    comparisons: field.list(
      {
        // A variable, or in a workflow any expression ({{$node["HTTP request"].status}}).
        variableId: field.variable({ label: 'Variable', expression: true }),
        comparisonOperator: field.enum({
          label: 'Operator',
          options: COMPARISON_OPERATORS,
          defaultValue: 'Equal to',
        }),
        value: field.string({
          label: 'Value',
          placeholder: 'Type a value...',
          allowVariables: true,
          // 'Is set' and 'Is empty' compare nothing.
          showIf: { field: 'comparisonOperator', notIn: UNARY_OPERATORS },
        }),
      },
      { label: 'Comparisons', itemLabel: 'comparison' }
    ),
    logicalOperator: field.enum({
      label: 'Joined by',
      options: LOGICAL_OPERATORS,
      defaultValue: 'AND',
    }),
  }
}

/** "Display condition" of choice items: show the item only when the condition holds. */
export function displayConditionField() {
  return field.object(
    {
      isEnabled: field.boolean({ label: 'Display condition', defaultValue: false }),
      condition: field.object(conditionFields(), {
        label: 'Condition',
        showIf: { field: 'isEnabled', equals: true },
      }),
    },
    { label: 'Display condition' }
  )
}

/** Where an input block saves the visitor's answer. */
export function answerVariableField() {
  return field.variable({ label: 'Save the answer in a variable', writes: true })
}

/** The message sent again when an answer is not valid. */
export function retryMessageField(defaultValue?: string) {
  return field.string({
    label: 'Retry message',
    allowVariables: true,
    defaultValue,
    translatable: true,
  })
}
