import { definePlugin, field } from '#sdk/plugin'

/**
 * Runs JavaScript: in the visitor's browser (default, can reach the page) or on the
 * server in the sandbox. Variables are passed by name; setVariable() writes them back.
 */
export default definePlugin({
  id: 'Code',
  name: 'Script',
  description: 'Run JavaScript',
  category: 'logic',
  scope: 'user',
  icon: 'square-code',
  version: 1,
  serves: ['bot'],
  options: {
    name: field.string({ label: 'Name', defaultValue: 'Script' }),
    content: field.code({ label: 'Code', lang: 'javascript', placeholder: "console.log('Hello')" }),
    isExecutedOnClient: field.boolean({ label: 'Execute on client', defaultValue: true }),
    shouldExecuteInParentContext: field.boolean({
      label: 'Execute in parent window context',
      defaultValue: false,
      showIf: { field: 'isExecutedOnClient', equals: true },
    }),
  },
})
