import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** An e-mail address, validated before the flow goes on. */
export default definePlugin({
  id: 'email input',
  name: 'Email',
  fullName: 'Email address input',
  tags: ['email', 'contact', 'form', 'lead'],
  description: 'Ask for an e-mail address',
  category: 'input',
  scope: 'user',
  icon: 'at-sign',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        defaultValue: 'Type your email...',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    retryMessageContent: retryMessageField(
      "This email doesn't seem to be valid. Can you type it again?"
    ),
    variableId: answerVariableField(),
  },
})
