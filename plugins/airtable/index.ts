import { definePlugin, field } from '#sdk/plugin'

export const AIRTABLE_DEFAULT_BASE_URL = 'https://api.airtable.com'

const base = () =>
  field.string({
    label: 'Base ID',
    allowVariables: true,
    required: true,
    placeholder: 'appXXXXXXXXXXXXXX',
    helperText: 'The part of the base\'s address starting with "app".',
  })
const table = () =>
  field.string({
    label: 'Table',
    allowVariables: true,
    required: true,
    helperText: 'The table\'s name or its ID (starting with "tbl").',
  })
const recordId = () =>
  field.string({
    label: 'Record ID',
    allowVariables: true,
    required: true,
    placeholder: 'recXXXXXXXXXXXXXX',
  })
const fields = () =>
  field.keyValue({ label: 'Fields', keyLabel: 'Field', valueLabel: 'Value', allowVariables: true })
const typecast = () =>
  field.boolean({
    label: 'Convert values',
    defaultValue: true,
    helperText: 'Let Airtable turn text into numbers, dates and select options.',
  })

/**
 * Airtable as a workflow node: list or search the records of a table, create, update and
 * delete records, with a personal access token.
 */
export default definePlugin({
  id: 'airtable',
  name: 'Airtable',
  fullName: 'Airtable bases and tables',
  tags: ['database', 'spreadsheet', 'records', 'no-code'],
  description: 'List, search, create, update and delete Airtable records',
  category: 'data',
  scope: 'workspace',
  icon: 'sheet',
  version: 1,
  docsUrl: 'https://airtable.com/developers/web/api/introduction',
  serves: ['workflow'],
  credentials: {
    apiKey: field.string({
      label: 'Personal access token',
      secret: true,
      required: true,
      placeholder: 'pat…',
      helperText:
        'Create one at airtable.com/create/tokens with data.records:read and write scopes.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'API URL',
      defaultValue: AIRTABLE_DEFAULT_BASE_URL,
      hidden: true,
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'airtable',
      required: true,
    }),
  },
  actions: {
    'Search records': {
      label: 'List or search records',
      options: {
        baseId: base(),
        table: table(),
        view: field.string({ label: 'View', allowVariables: true }),
        searchField: field.string({
          label: 'Search field',
          allowVariables: true,
          helperText: 'Keep the records whose field equals the value. Empty lists every record.',
        }),
        searchValue: field.string({
          label: 'Search value',
          allowVariables: true,
          showIf: { field: 'searchField', notEmpty: true },
        }),
        filterByFormula: field.code({
          label: 'Formula',
          lang: 'text',
          helperText:
            'Optional Airtable formula, e.g. AND({Status} = "Open", {Total} > 10). {{variables}} are not replaced in it: use the search field for values.',
        }),
        maxRecords: field.number({
          label: 'At most',
          min: 1,
          max: 1000,
          defaultValue: 100,
          allowVariables: true,
        }),
        responseMapping: field.responseMapping({
          label: 'Save fields in variables',
          key: 'field',
        }),
      },
    },
    'Create record': {
      label: 'Create record',
      options: { baseId: base(), table: table(), fields: fields(), typecast: typecast() },
    },
    'Update record': {
      label: 'Update record',
      options: {
        baseId: base(),
        table: table(),
        recordId: recordId(),
        fields: fields(),
        typecast: typecast(),
      },
    },
    'Delete record': {
      label: 'Delete record',
      options: { baseId: base(), table: table(), recordId: recordId() },
    },
  },
})
