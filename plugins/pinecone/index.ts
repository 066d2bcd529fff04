import { definePlugin, field } from '#sdk/plugin'

export const PINECONE_DEFAULT_BASE_URL = 'https://api.pinecone.io'
export const PINECONE_DEFAULT_TOP_K = 5

/**
 * Pinecone, the vector database: searches the records of an index (one with integrated
 * embedding: Pinecone embeds the query) and saves the text of the matches, joined with blank
 * lines, in variables (bots) or as the node's output (workflows).
 */
export default definePlugin({
  id: 'pinecone',
  name: 'Pinecone',
  fullName: 'Pinecone vector database',
  tags: ['vector', 'embeddings', 'search', 'rag'],
  description: 'Search a Pinecone index and use the matching texts',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'database-zap',
  version: 1,
  docsUrl: 'https://docs.pinecone.io/reference/api/2025-01/data-plane/search_records',
  serves: ['bot', 'workflow'],
  // Knowledge stores can live in a Pinecone index (runner.ts exports the backend).
  vectorStore: true,
  credentials: {
    apiKey: field.string({
      label: 'API key',
      secret: true,
      required: true,
      helperText: 'Create one in the Pinecone console under API keys.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: PINECONE_DEFAULT_BASE_URL,
      helperText: "Pinecone's control plane; change it only for a proxy.",
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'pinecone',
      required: true,
    }),
    indexName: field.string({
      label: 'Index',
      required: true,
      optionsFrom: { fetcher: 'indexes', dependsOn: ['credentialsId'] },
    }),
    namespace: field.string({
      label: 'Namespace',
      required: true,
      optionsFrom: { fetcher: 'namespaces', dependsOn: ['credentialsId', 'indexName'] },
    }),
    text: field.string({
      label: 'Search text',
      allowVariables: true,
      required: true,
      multiline: true,
      placeholder: '{{Question}}',
    }),
    score: field.number({
      label: 'Minimum score',
      min: 0,
      max: 1,
      step: 0.05,
      defaultValue: 0.5,
      required: true,
      helperText: 'Matches scoring below it are left out (1 is identical).',
      allowVariables: true,
    }),
    topK: field.number({
      label: 'Number of matches',
      min: 1,
      max: 100,
      step: 1,
      defaultValue: PINECONE_DEFAULT_TOP_K,
    }),
    responseMapping: field.list(
      { variableId: field.variable({ label: 'Variable', writes: true }) },
      {
        label: 'Save the matches in',
        itemLabel: 'variable',
        helperText: 'Each variable gets the texts of the matches, separated by blank lines.',
      }
    ),
  },
})
