import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** A phone number, validated against the default country when no prefix is typed. */
export default definePlugin({
  id: 'phone number input',
  name: 'Phone',
  fullName: 'Phone number input',
  tags: ['phone', 'contact', 'sms', 'form'],
  description: 'Ask for a phone number',
  category: 'input',
  scope: 'user',
  icon: 'phone',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        defaultValue: 'Type your phone number...',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    defaultCountryCode: field.string({
      label: 'Default country',
      placeholder: 'INT',
      defaultValue: 'INT',
      helperText: 'INT (international) or a two-letter country code such as FR',
      pattern: '^(INT|[A-Za-z]{2})$',
      patternMessage: 'Default country must be INT or a two-letter country code',
    }),
    retryMessageContent: retryMessageField(
      "This phone number doesn't seem to be valid. Can you type it again?"
    ),
    variableId: answerVariableField(),
  },
})
