import { definePlugin, field } from '#sdk/plugin'

/** How many passages a vector lookup returns unless the builder says otherwise. */
export const DEFAULT_NUMBER_OF_DOCUMENTS = 2

/**
 * Vector store lookup: searches a knowledge store
 * of the workspace (the Vectors page) with a query and returns the best passages. A bot
 * saves them, joined with blank lines, in a variable; a workflow node outputs them with
 * their sources and scores. docs/knowledge.md says how stores are searched.
 */
export default definePlugin({
  id: 'vector-store-lookup',
  name: 'Vector store lookup',
  fullName: 'Vector store lookup (knowledge base)',
  tags: ['rag', 'knowledge', 'embeddings', 'search'],
  description: 'Find the passages of a knowledge store that answer a query',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'book-open-text',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {
    storeId: field.string({
      label: 'Knowledge store',
      placeholder: 'Choose a store',
      required: true,
      optionsFrom: { fetcher: 'stores' },
      helperText: 'Stores are made on the Vectors page.',
    }),
    query: field.string({
      label: 'Query',
      placeholder: '{{Question}}',
      allowVariables: true,
      required: true,
    }),
    numberOfDocuments: field.number({
      label: 'Number of documents',
      min: 1,
      max: 50,
      step: 1,
      defaultValue: DEFAULT_NUMBER_OF_DOCUMENTS,
      allowVariables: true,
    }),
    responseVariableId: field.variable({
      label: 'Save the documents in',
      writes: true,
      helperText: 'The passages, joined with blank lines. A workflow node also outputs them.',
    }),
  },
})
