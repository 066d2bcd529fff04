import { conditionFields, definePlugin, field } from '#sdk/plugin'

export const LOOP_MODES = ['list', 'count', 'until'] as const
export const LOOP_EXITS = ['each', 'done', 'break'] as const

const BOT: ['bot'] = ['bot']
const WORKFLOW: ['workflow'] = ['workflow']

/**
 * Repeats a part of the graph: for each item of a list, a number of times, or until a
 * condition holds. The "Each" exit leads to the repeated part; "Done" is taken after the
 * last iteration and "Break" when the break condition holds between two iterations. A
 * bot's repeated part ends where its path ends (or where it leads back to the Loop); a
 * workflow's leads back to the Loop node through an edge. README.md says how the current
 * item and index are read.
 */
export default definePlugin({
  id: 'loop',
  name: 'Loop',
  fullName: 'Loop (for each, repeat, until)',
  tags: ['for each', 'repeat', 'iterate', 'while', 'until', 'list'],
  description: 'Repeat a part of the flow for each item, N times or until a condition holds',
  category: 'logic',
  categories: { workflow: 'flow' },
  scope: 'user',
  icon: 'repeat',
  version: 1,
  serves: ['bot', 'workflow'],
  replayable: true,
  options: {
    mode: field.enum({
      label: 'Repeat',
      options: [
        { label: 'For each item of a list', value: 'list' },
        { label: 'A number of times', value: 'count' },
        { label: 'Until a condition holds', value: 'until' },
      ],
      defaultValue: 'list',
    }),
    listVariableId: field.variable({
      label: 'List variable',
      surfaces: BOT,
      showIf: { field: 'mode', equals: 'list' },
    }),
    listPath: field.string({
      label: 'Path of the list in the input',
      placeholder: 'body.items',
      helperText: 'Empty: the input itself. Dots and [0] indexes, as in {{$input.body.items}}',
      surfaces: WORKFLOW,
      showIf: { field: 'mode', equals: 'list' },
    }),
    times: field.number({
      label: 'Times',
      min: 0,
      allowVariables: true,
      defaultValue: 3,
      showIf: { field: 'mode', equals: 'count' },
    }),
    until: field.object(conditionFields(), {
      label: 'Stop when',
      showIf: { field: 'mode', equals: 'until' },
    }),
    breakWhen: field.object(conditionFields(), {
      label: 'Break when',
      helperText: 'Checked after each iteration: when it holds, the loop leaves through Break',
    }),
    itemVariableId: field.variable({
      label: 'Save the current item in',
      writes: true,
      surfaces: BOT,
      showIf: { field: 'mode', equals: 'list' },
    }),
    indexVariableId: field.variable({
      label: 'Save the index (0, 1, 2...) in',
      writes: true,
      surfaces: BOT,
    }),
  },
  items: {
    fields: {
      exit: field.enum({
        label: 'Exit',
        options: [
          { label: 'Each iteration', value: 'each' },
          { label: 'Done', value: 'done' },
          { label: 'Break', value: 'break' },
        ],
        required: true,
      }),
    },
    min: 3,
    max: 3,
    defaultItems: [{ exit: 'each' }, { exit: 'done' }, { exit: 'break' }],
    coverEveryPath: true,
    repeats: { field: 'exit', equals: 'each' },
  },
})
