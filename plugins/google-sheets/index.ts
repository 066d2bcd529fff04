import { definePlugin, field } from '#sdk/plugin'
import { googleOAuth, googleOAuthCredentials } from '#sdk/google_fields'

export const SHEETS_DEFAULT_BASE_URL = 'https://sheets.googleapis.com'
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets'

export const SHEET_OPERATORS = [
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

/** Rows compared with the cells of their header's column; all or any of them must hold. */
function filterFields() {
  return {
    filter: field.list(
      {
        column: field.string({ label: 'Column', allowVariables: true }),
        comparisonOperator: field.enum({
          label: 'Operator',
          options: SHEET_OPERATORS,
          defaultValue: 'Equal to',
        }),
        value: field.string({
          label: 'Value',
          allowVariables: true,
          showIf: { field: 'comparisonOperator', notIn: ['Is set', 'Is empty'] },
        }),
      },
      { label: 'Filter rows', itemLabel: 'comparison' }
    ),
    logicalOperator: field.enum({
      label: 'Rows match when',
      options: [
        { label: 'every comparison holds', value: 'AND' },
        { label: 'any comparison holds', value: 'OR' },
      ],
      defaultValue: 'AND',
    }),
  }
}

/**
 * Google Sheets: read rows of a sheet into variables, add a row, update the rows a filter
 * finds; workflows may also append many rows and clear a sheet. The first row of the sheet
 * is its header: columns are named by it. Signs in with the builder's Google account
 * (OAuth, spreadsheets scope), Sheets API v4.
 */
export default definePlugin({
  id: 'Google Sheets',
  name: 'Google Sheets',
  fullName: 'Google Sheets',
  tags: ['spreadsheet', 'google', 'rows', 'database'],
  description: 'Read, add and update rows of a Google spreadsheet',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'sheet',
  version: 1,
  docsUrl: 'https://developers.google.com/sheets/api/reference/rest',
  serves: ['bot', 'workflow'],
  credentials: googleOAuthCredentials(SHEETS_DEFAULT_BASE_URL),
  oauth: googleOAuth([SHEETS_SCOPE]),
  options: {
    credentialsId: field.credentials({
      label: 'Google account',
      credentialType: 'Google Sheets',
      required: true,
    }),
    spreadsheetId: field.string({
      label: 'Spreadsheet',
      allowVariables: true,
      required: true,
      placeholder: 'https://docs.google.com/spreadsheets/d/…',
      helperText: "The spreadsheet's link or its ID.",
    }),
    sheetName: field.string({
      label: 'Sheet',
      allowVariables: true,
      placeholder: 'Sheet1',
      helperText: "The tab's name; empty: the first tab. Its first row names the columns.",
    }),
  },
  actions: {
    'Get data from sheet': {
      label: 'Get data',
      options: {
        ...filterFields(),
        totalRowsToExtract: field.enum({
          label: 'Rows to extract',
          options: ['All', 'First', 'Last', 'Random', 'Custom', 'Range'],
          defaultValue: 'All',
        }),
        rowIndex: field.number({
          label: 'Row index',
          min: 0,
          step: 1,
          helperText: 'Among the matching rows, 0 being the first.',
          showIf: { field: 'totalRowsToExtract', equals: 'Custom' },
        }),
        startIndex: field.number({
          label: 'From row index',
          min: 0,
          step: 1,
          defaultValue: 0,
          showIf: { field: 'totalRowsToExtract', equals: 'Range' },
        }),
        limit: field.number({
          label: 'Number of rows',
          min: 1,
          step: 1,
          defaultValue: 10,
          showIf: { field: 'totalRowsToExtract', equals: 'Range' },
        }),
        responseMapping: field.responseMapping({
          label: 'Save columns in variables',
          key: 'field',
        }),
      },
    },
    'Insert a row': {
      label: 'Insert a row',
      options: {
        cellsToInsert: field.keyValue({
          label: 'Cells',
          keyLabel: 'Column',
          valueLabel: 'Value',
          allowVariables: true,
        }),
        insertIndex: field.number({
          label: 'Insert at row index',
          min: 0,
          step: 1,
          helperText: 'Empty: after the last row. 0 puts it right under the header.',
        }),
      },
    },
    'Update a row': {
      label: 'Update a row',
      options: {
        ...filterFields(),
        cellsToUpsert: field.keyValue({
          label: 'Cells to update',
          keyLabel: 'Column',
          valueLabel: 'Value',
          allowVariables: true,
        }),
      },
    },
    'Append rows': {
      label: 'Append rows',
      surfaces: ['workflow'],
      options: {
        rows: field.string({
          label: 'Rows',
          allowVariables: true,
          helperText:
            'A JSON list of records ({"Column": "value"}); empty: the node\'s input when it is such a list.',
        }),
      },
    },
    'Clear sheet': {
      label: 'Clear sheet',
      surfaces: ['workflow'],
      options: {
        keepHeader: field.boolean({ label: 'Keep the header row', defaultValue: true }),
      },
    },
  },
})
