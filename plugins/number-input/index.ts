import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** A number answer within optional bounds; bounds may hold a {{variable}}. */
export default definePlugin({
  id: 'number input',
  name: 'Number',
  fullName: 'Number input',
  tags: ['number', 'quantity', 'amount', 'form'],
  description: 'Ask for a number',
  category: 'input',
  scope: 'user',
  icon: 'hash',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        defaultValue: 'Type a number...',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    min: field.number({ label: 'Minimum', allowVariables: true }),
    max: field.number({ label: 'Maximum', allowVariables: true }),
    step: field.number({ label: 'Step', allowVariables: true }),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
})
