import { definePlugin, field, output, schemaOfValue } from '#sdk/plugin'

/**
 * Starts a run by hand (the editor's Run button, or the API). The run's input is what the
 * caller sends; the test input stands in when the caller sends nothing.
 */
export default definePlugin({
  id: 'manual-trigger',
  name: 'Manual trigger',
  fullName: 'Manual trigger (run by hand)',
  tags: ['start', 'test', 'button'],
  description: 'Start the workflow by hand',
  category: 'trigger',
  scope: 'user',
  icon: 'mouse-pointer-click',
  version: 1,
  serves: ['workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.executeWorkflowTrigger'] },
  replayable: true,
  // What the caller sends is not known ahead; the test input stands for it.
  outputSchema: (options) => {
    const text = typeof options.testInput === 'string' ? options.testInput.trim() : ''
    if (!text) return output.object({})
    return schemaOfValue(JSON.parse(text))
  },
  options: {
    testInput: field.code({
      label: 'Test input',
      lang: 'json',
      placeholder: '{ "name": "Ada" }',
      helperText: 'JSON used as the input when a run starts without one',
    }),
  },
})
