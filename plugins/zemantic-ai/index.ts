import { definePlugin, field } from '#sdk/plugin'

/**
 * Zemantic AI: answers a question from a document with the brain service's semantic
 * search (BRAIN_SERVICE_URL, `#sdk/brain`: POST /ask_query with filepath and query) and
 * saves the answer in a variable.
 */
export default definePlugin({
  id: 'zemantic-ai',
  name: 'Zemantic AI',
  fullName: 'Zemantic AI search',
  tags: ['ai', 'search', 'knowledge', 'semantic'],
  description: 'Answer a question from a document',
  category: 'integration',
  scope: 'user',
  icon: 'file-search',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {
    filepath: field.string({
      label: 'Document',
      placeholder: 'e.g. docs/handbook.pdf',
      helperText: 'The path of the document on the brain service, or a {{variable}} holding it.',
      allowVariables: true,
      required: true,
    }),
    query: field.string({
      label: 'Question',
      placeholder: '{{Question}}',
      multiline: true,
      allowVariables: true,
      required: true,
    }),
    saveAnswerInVariableId: field.variable({ label: 'Save the answer in', writes: true }),
  },
})
