import { definePlugin, field } from '#sdk/plugin'

/**
 * Runs a published workflow of the same workspace and waits for it. In a bot: with inputs
 * from the chat, parts of its output saved in bot variables. In a workflow: with the
 * inputs, or the node's input when none is given; its output is the node's output.
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
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.executeWorkflow'] },
  options: {
    workflowId: field.string({
      label: 'Workflow',
      placeholder: 'Workflow id',
      optionsFrom: { fetcher: 'workflows' },
    }),
    inputs: field.keyValue({ label: 'Input', allowVariables: true }),
    variableMappings: field.responseMapping({
      label: 'Save in variables',
      key: 'bodyPath',
      surfaces: ['bot'],
    }),
  },
})
