import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** A website address, validated before the flow goes on. */
export default definePlugin({
  id: 'url input',
  name: 'Website',
  fullName: 'Website (URL) input',
  tags: ['url', 'link', 'website', 'form'],
  description: 'Ask for a URL',
  category: 'input',
  scope: 'user',
  icon: 'link',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      placeholder: field.string({
        translatable: true,
        label: 'Placeholder',
        defaultValue: 'Type a URL...',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    retryMessageContent: retryMessageField(
      "This URL doesn't seem to be valid. Can you type it again?"
    ),
    variableId: answerVariableField(),
  },
})
