import { definePlugin, field } from '#sdk/plugin'

/** The 18 kinds of value Set variable can compute, in the order the picker lists them. */
export const SET_VARIABLE_TYPES = [
  'Custom',
  'Today',
  'Now',
  'Yesterday',
  'Tomorrow',
  'Moment of the day',
  'Empty',
  'Environment name',
  'User ID',
  'Result ID',
  'Random ID',
  'Phone number',
  'Contact name',
  'Transcript',
  'Pop',
  'Shift',
  'Map item with same index',
  'Append value(s)',
] as const

const DATE_TYPES = ['Now', 'Today', 'Yesterday', 'Tomorrow']

const BOT: ['bot'] = ['bot']

/**
 * Sets a variable to a computed value. In a bot: Custom evaluates text with {{variables}},
 * or JavaScript in the sandbox when isCode is on, and the other kinds compute dates, ids,
 * list operations. In a workflow: the value is text whose {{variables}} and {{$...}}
 * references are substituted.
 */
export default definePlugin({
  id: 'Set variable',
  name: 'Set variable',
  fullName: 'Set a variable',
  tags: ['variable', 'assign', 'value', 'data'],
  description: 'Give a variable a value',
  category: 'logic',
  categories: { workflow: 'flow' },
  scope: 'user',
  icon: 'pen-line',
  version: 1,
  serves: ['bot', 'workflow'],
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-set-variable'],
  replayable: true,
  // In a workflow it sets the variable and passes its input on.
  outputSchema: 'input',
  options: {
    variableId: field.variable({ label: 'Variable', writes: true }),
    type: field.enum({
      label: 'Value',
      options: SET_VARIABLE_TYPES,
      defaultValue: 'Custom',
      surfaces: BOT,
    }),
    value: field.string({
      label: 'Value',
      placeholder: 'Type a value, {{a variable}} or {{$input.path}}',
      allowVariables: true,
      multiline: true,
      surfaces: ['workflow'],
    }),
    isCode: field.boolean({
      label: 'Evaluate as code',
      surfaces: BOT,
      defaultValue: false,
      showIf: { field: 'type', equals: 'Custom' },
    }),
    expressionToEvaluate: field.code({
      label: 'Value',
      surfaces: BOT,
      lang: 'javascript',
      variables: 'braces',
      // Text with {{variables}} until "Evaluate as code" is on.
      codeIf: { field: 'isCode', equals: true },
      placeholder: 'Type a value or {{a variable}}',
      showIf: { field: 'type', equals: 'Custom' },
    }),
    timeZone: field.string({
      label: 'Time zone',
      surfaces: BOT,
      placeholder: 'Europe/Paris',
      showIf: { field: 'type', in: DATE_TYPES },
    }),
    item: field.string({
      label: 'Value(s) to append',
      surfaces: BOT,
      allowVariables: true,
      showIf: { field: 'type', equals: 'Append value(s)' },
    }),
    saveItemInVariableId: field.variable({
      label: 'Save the removed item in',
      surfaces: BOT,
      writes: true,
      showIf: { field: 'type', in: ['Pop', 'Shift'] },
    }),
    mapListItemParams: field.object(
      {
        baseItemVariableId: field.variable({ label: 'Base item' }),
        baseListVariableId: field.variable({ label: 'Base list' }),
        targetListVariableId: field.variable({ label: 'Target list' }),
      },
      {
        label: 'Map item with same index',
        surfaces: BOT,
        showIf: { field: 'type', equals: 'Map item with same index' },
      }
    ),
    isExecutedOnClient: field.boolean({
      label: 'Execute on client',
      surfaces: BOT,
      defaultValue: false,
      showIf: { field: 'type', equals: 'Custom' },
    }),
  },
})
