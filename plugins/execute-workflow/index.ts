import { definePlugin, field } from '#sdk/plugin'

/**
 * Runs a published workflow of the same workspace with inputs from the chat and saves
 * parts of its output in bot variables.
 */
export default definePlugin({
  id: 'execute-workflow',
  name: 'Execute workflow',
  fullName: 'Execute a workflow',
  tags: ['workflow', 'automation', 'subflow'],
  description: 'Run a workflow and use its output',
  category: 'integration',
  scope: 'workspace',
  icon: 'workflow',
  version: 1,
  serves: ['bot'],
  options: {
    workflowId: field.string({
      label: 'Workflow',
      placeholder: 'Workflow id',
      optionsFrom: { fetcher: 'workflows' },
    }),
    inputs: field.keyValue({ label: 'Input', allowVariables: true }),
    variableMappings: field.responseMapping({ label: 'Save in variables', key: 'bodyPath' }),
  },
})
