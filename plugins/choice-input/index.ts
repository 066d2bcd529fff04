import {
  answerVariableField,
  definePlugin,
  displayConditionField,
  field,
  retryMessageField,
} from '#sdk/plugin'

/**
 * Buttons. Each item is a button with its own outgoing edge; a dynamic variable holding
 * a list replaces the items at run time.
 */
export default definePlugin({
  id: 'choice input',
  name: 'Buttons',
  fullName: 'Buttons (multiple choice)',
  tags: ['choice', 'options', 'select', 'quick replies'],
  description: 'Offer buttons to click',
  category: 'input',
  scope: 'user',
  icon: 'square-check',
  version: 1,
  serves: ['bot'],
  showsContent: true,
  options: {
    isMultipleChoice: field.boolean({ label: 'Multiple choice', defaultValue: false }),
    buttonLabel: field.string({
      translatable: true,
      label: 'Submit label',
      defaultValue: 'Send',
      showIf: { field: 'isMultipleChoice', equals: true },
    }),
    isSearchable: field.boolean({ label: 'Is searchable', defaultValue: false }),
    searchInputPlaceholder: field.string({
      translatable: true,
      label: 'Search input placeholder',
      defaultValue: 'Filter the options...',
      showIf: { field: 'isSearchable', equals: true },
    }),
    dynamicVariableId: field.variable({
      label: 'Dynamic items from a variable',
      helperText: 'A variable holding a list: one button per value',
    }),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
  items: {
    fields: {
      content: field.string({
        translatable: true,
        label: 'Button text',
        placeholder: 'Click to edit',
        allowVariables: true,
      }),
      displayCondition: displayConditionField(),
    },
    min: 1,
    defaultItems: [{}],
  },
})
