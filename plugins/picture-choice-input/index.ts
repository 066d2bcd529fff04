import {
  answerVariableField,
  definePlugin,
  displayConditionField,
  field,
  retryMessageField,
} from '#sdk/plugin'

/** Picture choice: cards with a picture, a title and a description. */
export default definePlugin({
  id: 'picture choice input',
  name: 'Pic choice',
  fullName: 'Picture choice',
  tags: ['choice', 'images', 'gallery', 'select'],
  description: 'Offer pictures to choose from',
  category: 'input',
  scope: 'user',
  icon: 'images',
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
    dynamicItems: field.object(
      {
        isEnabled: field.boolean({ label: 'Dynamic items', defaultValue: false }),
        pictureSrcsVariableId: field.variable({
          label: 'Images from',
          showIf: { field: 'isEnabled', equals: true },
        }),
        titlesVariableId: field.variable({
          label: 'Titles from',
          showIf: { field: 'isEnabled', equals: true },
        }),
        descriptionsVariableId: field.variable({
          label: 'Descriptions from',
          showIf: { field: 'isEnabled', equals: true },
        }),
      },
      { label: 'Dynamic items' }
    ),
    retryMessageContent: retryMessageField(),
    variableId: answerVariableField(),
  },
  items: {
    fields: {
      pictureSrc: field.string({ label: 'Image URL', allowVariables: true }),
      title: field.string({ translatable: true, label: 'Title', allowVariables: true }),
      description: field.string({ translatable: true, label: 'Description', allowVariables: true }),
      displayCondition: displayConditionField(),
    },
    min: 1,
    defaultItems: [{}],
  },
})
