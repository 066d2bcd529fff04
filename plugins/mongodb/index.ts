import { definePlugin, field } from '#sdk/plugin'

export const MONGODB_COLUMN_TYPES = ['String', 'Integer', 'Float', 'Boolean', 'Date'] as const

const database = () =>
  field.string({
    label: 'Database',
    allowVariables: true,
    helperText: "Empty uses the connection URL's database.",
  })
const collection = () => field.string({ label: 'Collection', allowVariables: true, required: true })
const conditions = () =>
  field.list(
    {
      fieldName: field.string({ label: 'Field', allowVariables: true }),
      value: field.string({ label: 'Equals', allowVariables: true }),
    },
    { label: 'Conditions', itemLabel: 'condition' }
  )
const keyValues = (label: string) =>
  field.keyValue({ label, keyLabel: 'Field', valueLabel: 'Value', allowVariables: true })

/**
 * MongoDB: create a collection (strict or dynamic, with a $jsonSchema validator), find,
 * insert, update and delete documents of a database of the workspace, from bots and
 * workflows. Values are never read as query operators; one client per credential.
 */
export default definePlugin({
  id: 'mongodb',
  name: 'MongoDB',
  fullName: 'MongoDB database',
  tags: ['database', 'nosql', 'documents', 'query'],
  description: 'Find, add, update and delete the documents of a MongoDB collection',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'leaf',
  version: 1,
  docsUrl: 'https://www.mongodb.com/docs/manual/crud/',
  serves: ['bot', 'workflow'],
  credentials: {
    baseUrl: field.string({
      format: 'url',
      label: 'Connection URL',
      secret: true,
      required: true,
      placeholder: 'mongodb://user:password@host:27017/database',
      helperText: 'mongodb:// or mongodb+srv://; add ?tls=true to connect over TLS.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Server',
      credentialType: 'mongodb',
      required: true,
    }),
  },
  actions: {
    'Create table': {
      label: 'Create collection',
      options: {
        database: database(),
        collection: collection(),
        isStrict: field.boolean({
          label: 'Strict',
          defaultValue: false,
          helperText:
            'Strict: documents must have exactly these fields. Otherwise the fields listed are typed and others are allowed.',
        }),
        dynamicVariable: field.variable({
          label: 'Fields from a variable',
          helperText:
            'Optional: a variable holding the fields as JSON, a list of {columnName, type} or a sample document.',
        }),
        columns: field.list(
          {
            columnName: field.string({ label: 'Field name', required: true }),
            type: field.enum({
              label: 'Type',
              options: MONGODB_COLUMN_TYPES,
              defaultValue: 'String',
            }),
          },
          {
            label: 'Fields',
            itemLabel: 'field',
            showIf: { field: 'dynamicVariable', isEmpty: true },
          }
        ),
      },
    },
    'Search': {
      label: 'Find documents',
      options: {
        database: database(),
        collection: collection(),
        projection: field.list(
          {
            fieldName: field.string({ label: 'Field', allowVariables: true }),
            include: field.boolean({ label: 'Include', defaultValue: true }),
          },
          { label: 'Projection', itemLabel: 'field' }
        ),
        conditions: conditions(),
        responseMapping: field.responseMapping({
          label: 'Save fields in variables',
          key: 'field',
        }),
      },
    },
    'Create record': {
      label: 'Insert a document',
      options: { database: database(), collection: collection(), fields: keyValues('Fields') },
    },
    'Update': {
      label: 'Update documents',
      options: {
        database: database(),
        collection: collection(),
        conditions: conditions(),
        updates: keyValues('Set'),
      },
    },
    'Delete': {
      label: 'Delete documents',
      options: { database: database(), collection: collection(), conditions: conditions() },
    },
  },
})
