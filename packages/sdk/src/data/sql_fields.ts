import { field } from '../fields.js'

/**
 * The options of the SQL database plugins (PostgreSQL, MySQL, SQLite), shared so the three
 * forms stay alike ("Data block options").
 * Browser-safe: manifests import it through `#sdk/data_fields`.
 */

export const SQL_OPERATOR_OPTIONS = [
  'Equal to',
  'Not equal',
  'Greater than',
  'Less than',
  'Contains',
  'Starts with',
  'Ends with',
  'Is set',
  'Is empty',
] as const

function tableNameField() {
  return field.string({
    label: 'Table name',
    allowVariables: true,
    required: true,
    helperText: 'Letters, digits and underscores.',
  })
}

function conditionsField() {
  return field.list(
    {
      column: field.string({ label: 'Column', allowVariables: true }),
      operator: field.enum({
        label: 'Operator',
        options: SQL_OPERATOR_OPTIONS,
        defaultValue: 'Equal to',
      }),
      value: field.string({
        label: 'Value',
        allowVariables: true,
        showIf: { field: 'operator', notIn: ['Is set', 'Is empty'] },
      }),
    },
    { label: 'Conditions', itemLabel: 'condition' }
  )
}

function recordFields() {
  return field.keyValue({
    label: 'Fields',
    keyLabel: 'Column',
    valueLabel: 'Value',
    allowVariables: true,
  })
}

/**
 * The actions of a SQL database block. `integerType` is how the integer column type is
 * spelled on the engine (INT on MySQL, INTEGER on PostgreSQL and SQLite).
 */
export function sqlActions<const IntegerType extends 'INT' | 'INTEGER'>(integerType: IntegerType) {
  return {
    'Create table': {
      label: 'Create table',
      options: {
        tableName: tableNameField(),
        dynamicVariable: field.variable({
          label: 'Columns from a variable',
          helperText:
            'Optional: a variable holding the columns as JSON, a list of {columnName, type} or a sample record.',
        }),
        columns: field.list(
          {
            columnName: field.string({ label: 'Column name', required: true }),
            type: field.enum({
              label: 'Type',
              options: ['VARCHAR', integerType, 'FLOAT', 'BOOLEAN', 'DATE'] as const,
              defaultValue: 'VARCHAR',
            }),
            isPrimaryKey: field.boolean({ label: 'Primary key', defaultValue: false }),
            isNullable: field.boolean({ label: 'Nullable', defaultValue: true }),
            length: field.number({
              label: 'Length',
              min: 1,
              max: 65535,
              showIf: { field: 'type', equals: 'VARCHAR' },
            }),
          },
          {
            label: 'Columns',
            itemLabel: 'column',
            showIf: { field: 'dynamicVariable', isEmpty: true },
          }
        ),
      },
    },
    'Create record': {
      label: 'Create record',
      options: { tableName: tableNameField(), fields: recordFields() },
    },
    'Get data': {
      label: 'Get data',
      options: {
        tableName: tableNameField(),
        conditions: conditionsField(),
        responseMapping: field.responseMapping({
          label: 'Save columns in variables',
          key: 'field',
        }),
      },
    },
    'Update': {
      label: 'Update',
      options: {
        tableName: tableNameField(),
        conditions: conditionsField(),
        fields: recordFields(),
      },
    },
    'Delete': {
      label: 'Delete',
      options: { tableName: tableNameField(), conditions: conditionsField() },
    },
  } as const
}

/** The workflow-only action: a query the builder writes, its values bound. */
export function sqlQueryAction(placeholder: '$1' | '?') {
  return {
    'Run query': {
      label: 'Run query',
      surfaces: ['workflow'] as const,
      options: {
        query: field.code({
          label: 'Query',
          lang: 'sql',
          required: true,
          helperText: `One statement. Put ${placeholder === '$1' ? '$1, $2…' : '?'} where a parameter goes; {{variables}} are not replaced in the query itself.`,
        }),
        parameters: field.list(
          { value: field.string({ label: 'Value', allowVariables: true }) },
          { label: 'Parameters', itemLabel: 'parameter' }
        ),
        responseMapping: field.responseMapping({
          label: 'Save columns in variables',
          key: 'field',
        }),
      },
    },
  } as const
}
