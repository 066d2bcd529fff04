import { answerVariableField, definePlugin, field } from '#sdk/plugin'

/**
 * Asks the visitor to share their location through the browser. Its parts: a question label,
 * yes and no buttons and the browser's details; their defaults are ours.
 */
export default definePlugin({
  id: 'location input',
  name: 'Location',
  fullName: 'Location (address) input',
  tags: ['address', 'map', 'geolocation', 'form'],
  description: "Ask for the visitor's location",
  category: 'input',
  scope: 'user',
  icon: 'map-pin',
  version: 1,
  serves: ['bot'],
  options: {
    labels: field.object({
      question: field.string({
        translatable: true,
        label: 'Question',
        defaultValue: 'Can we use your location?',
      }),
      yes: field.string({ translatable: true, label: 'Yes button label', defaultValue: 'Yes' }),
      no: field.string({ translatable: true, label: 'No button label', defaultValue: 'No' }),
    }),
    browserDetails: field.boolean({
      label: 'Save browser details',
      helperText: 'Also keep the browser and device details with the answer',
      defaultValue: false,
    }),
    variableId: answerVariableField(),
  },
})
