import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** A rating on a scale of numbers or icons. */
export default definePlugin({
  id: 'rating input',
  name: 'Rating',
  fullName: 'Rating (stars or score)',
  tags: ['rating', 'nps', 'feedback', 'stars'],
  description: 'Ask for a rating',
  category: 'input',
  scope: 'user',
  icon: 'star',
  version: 1,
  serves: ['bot'],
  options: {
    buttonType: field.enum({
      label: 'Type',
      options: ['Icons', 'Numbers'],
      defaultValue: 'Numbers',
    }),
    length: field.number({ label: 'Maximum', min: 1, max: 10, step: 1, defaultValue: 10 }),
    startsAt: field.number({
      label: 'Start at',
      min: 0,
      step: 1,
      defaultValue: 0,
      showIf: { field: 'buttonType', equals: 'Numbers' },
    }),
    labels: field.object({
      left: field.string({
        translatable: true,
        label: 'Left label',
        placeholder: 'Not likely at all',
      }),
      right: field.string({
        translatable: true,
        label: 'Right label',
        placeholder: 'Extremely likely',
      }),
      button: field.string({ translatable: true, label: 'Button label', defaultValue: 'Send' }),
    }),
    customIcon: field.object(
      {
        isEnabled: field.boolean({ label: 'Custom icon', defaultValue: false }),
        svg: field.code({
          label: 'Icon SVG',
          lang: 'html',
          showIf: { field: 'isEnabled', equals: true },
        }),
      },
      { label: 'Custom icon', showIf: { field: 'buttonType', equals: 'Icons' } }
    ),
    isOneClickSubmitEnabled: field.boolean({ label: 'One-click submit', defaultValue: false }),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
})
