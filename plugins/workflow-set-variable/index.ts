import { definePlugin, field } from '#sdk/plugin'

/** Gives a workflow variable a value; later nodes read it as {{Variable name}}. */
export default definePlugin({
  id: 'workflow-set-variable',
  name: 'Set variable',
  description: 'Give a variable a value',
  category: 'flow',
  scope: 'user',
  icon: 'pen-line',
  version: 1,
  serves: ['workflow'],
  replayable: true,
  options: {
    variableId: field.variable({ label: 'Variable', writes: true, required: true }),
    value: field.string({
      label: 'Value',
      placeholder: 'Type a value, {{a variable}} or {{$input.path}}',
      allowVariables: true,
      multiline: true,
    }),
  },
})
