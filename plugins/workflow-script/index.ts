import { definePlugin, field } from '#sdk/plugin'

/**
 * Runs JavaScript on the server in the sandbox (10 s, 32 MB). The code sees `input` (the
 * node's input) and the variables by name, may call setVariable(name, value), and what it
 * returns is the node's output.
 */
export default definePlugin({
  id: 'workflow-script',
  name: 'Script',
  description: 'Run JavaScript on the data',
  category: 'flow',
  scope: 'user',
  icon: 'square-code',
  version: 1,
  serves: ['workflow'],
  replayable: true,
  options: {
    code: field.code({
      label: 'Code',
      lang: 'javascript',
      placeholder: 'return { count: input.items.length }',
      helperText: 'input holds the node input; return the output',
    }),
  },
})
