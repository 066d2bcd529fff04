import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/**
 * A date, a date and time, or a range. With no format the answer reads dd/MM/yyyy
 * (dd/MM/yyyy HH:mm with time).
 */
export default definePlugin({
  id: 'date input',
  name: 'Date',
  fullName: 'Date picker',
  tags: ['date', 'time', 'calendar', 'form'],
  description: 'Ask for a date',
  category: 'input',
  scope: 'user',
  icon: 'calendar',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
      from: field.string({
        translatable: true,
        label: 'From label',
        defaultValue: 'From:',
        showIf: { field: '$.isRange', equals: true },
      }),
      to: field.string({
        translatable: true,
        label: 'To label',
        defaultValue: 'To:',
        showIf: { field: '$.isRange', equals: true },
      }),
    }),
    hasTime: field.boolean({ label: 'With time', defaultValue: false }),
    isRange: field.boolean({ label: 'Is range', defaultValue: false }),
    format: field.string({
      label: 'Format',
      placeholder: 'dd/MM/yyyy',
      helperText: 'Luxon date tokens, e.g. dd/MM/yyyy or yyyy-MM-dd HH:mm',
    }),
    min: field.string({ label: 'Minimum date', placeholder: 'yyyy-MM-dd', allowVariables: true }),
    max: field.string({ label: 'Maximum date', placeholder: 'yyyy-MM-dd', allowVariables: true }),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
})
