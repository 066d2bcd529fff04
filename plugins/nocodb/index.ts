import { definePlugin, field } from '#sdk/plugin'

export const NOCODB_DEFAULT_BASE_URL = 'https://app.nocodb.com'

export const NOCODB_OPERATORS = [
  'Equal to',
  'Not equal',
  'Contains',
  'Starts with',
  'Ends with',
  'Greater than',
  'Less than',
  'Is set',
  'Is empty',
] as const

const tableId = () =>
  field.string({
    label: 'Table ID',
    allowVariables: true,
    required: true,
    helperText: 'In NocoDB: the table\'s "..." menu, Copy table ID (it starts with m).',
  })

const filter = (label: string) =>
  field.object(
    {
      comparisons: field.list(
        {
          input: field.string({ label: 'Field', allowVariables: true }),
          operator: field.enum({
            label: 'Operator',
            options: NOCODB_OPERATORS,
            defaultValue: 'Equal to',
          }),
          value: field.string({
            label: 'Value',
            allowVariables: true,
            showIf: { field: 'operator', notIn: ['Is set', 'Is empty'] },
          }),
        },
        { label, itemLabel: 'comparison' }
      ),
      joiner: field.enum({
        label: 'Join with',
        options: ['AND', 'OR'],
        defaultValue: 'AND',
        showIf: { field: 'comparisons.1', notEmpty: true },
      }),
    },
    { label }
  )

const keyValues = (label: string) =>
  field.keyValue({ label, keyLabel: 'Field', valueLabel: 'Value', allowVariables: true })

/**
 * NocoDB: search, create and update the records of a table through its v2 REST API (the
 * `xc-token` API token), from bots and workflows.
 */
export default definePlugin({
  id: 'nocodb',
  name: 'NocoDB',
  fullName: 'NocoDB tables',
  tags: ['database', 'spreadsheet', 'records', 'no-code'],
  description: 'Search, create and update the records of a NocoDB table',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'table-2',
  version: 1,
  docsUrl: 'https://data-apis-v2.nocodb.com/',
  serves: ['bot', 'workflow'],
  credentials: {
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: NOCODB_DEFAULT_BASE_URL,
      placeholder: NOCODB_DEFAULT_BASE_URL,
      helperText: 'Your NocoDB address when you host it yourself.',
    }),
    apiKey: field.string({
      label: 'API token',
      secret: true,
      required: true,
      helperText: 'In NocoDB: Team & settings, API tokens.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'nocodb',
      required: true,
    }),
  },
  actions: {
    'Search records': {
      label: 'Search records',
      options: {
        tableId: tableId(),
        viewId: field.string({ label: 'View ID', allowVariables: true }),
        returnType: field.enum({
          label: 'Records to return',
          options: ['All', 'First', 'Last', 'Random'],
          defaultValue: 'All',
        }),
        filter: filter('Filter'),
        responseMapping: field.responseMapping({
          label: 'Save fields in variables',
          key: 'field',
        }),
      },
    },
    'Create record': {
      label: 'Create record',
      options: { tableId: tableId(), fields: keyValues('Fields') },
    },
    'Update record': {
      label: 'Update records',
      options: {
        tableId: tableId(),
        filter: filter('Records to update'),
        updates: keyValues('Updates'),
      },
    },
  },
})
