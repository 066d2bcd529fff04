import { definePlugin, field } from '#sdk/plugin'

/**
 * Runs JavaScript. In a bot: in the visitor's browser (default, can reach the page) or on
 * the server in the sandbox; variables are passed by name and setVariable() writes them
 * back. In a workflow: always in the sandbox (10 s, 32 MB), with `input` (the node's input)
 * beside the variables, and what the code returns is the node's output.
 */
export default definePlugin({
  id: 'Code',
  name: 'Script',
  fullName: 'Script (JavaScript)',
  tags: ['javascript', 'code', 'function', 'custom'],
  description: 'Run JavaScript',
  category: 'logic',
  categories: { workflow: 'flow' },
  scope: 'user',
  icon: 'square-code',
  version: 1,
  serves: ['bot', 'workflow'],
  importsFrom: {
    n8n: [
      'n8n-nodes-base.code',
      'n8n-nodes-base.function',
      'n8n-nodes-base.functionItem',
      'n8n-nodes-base.set',
      'n8n-nodes-base.merge',
    ],
  },
  // Workflows saved before the bot block and the workflow node became one store this id,
  // with the code in `code`.
  aliases: ['workflow-script'],
  fromAlias: (_alias, { code, ...rest }) => ({ content: code, ...rest }),
  replayable: true,
  options: {
    name: field.string({ label: 'Name', defaultValue: 'Script', surfaces: ['bot'] }),
    content: field.code({
      label: 'Code',
      lang: 'javascript',
      variables: 'names',
      placeholder: "console.log('Hello')",
      helperText:
        'In a workflow, input holds the node input and what the code returns is its output',
    }),
    isExecutedOnClient: field.boolean({
      label: 'Execute on client',
      defaultValue: true,
      surfaces: ['bot'],
    }),
    shouldExecuteInParentContext: field.boolean({
      label: 'Execute in parent window context',
      defaultValue: false,
      showIf: { field: 'isExecutedOnClient', equals: true },
      surfaces: ['bot'],
    }),
  },
})
