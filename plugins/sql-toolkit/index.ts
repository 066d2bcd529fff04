import { definePlugin, field } from '#sdk/plugin'

const common = {
  name: field.string({
    label: 'Tool name prefix',
    defaultValue: 'sql',
    pattern: '^[A-Za-z][A-Za-z0-9_]{0,29}$',
    patternMessage: 'Letters, digits and underscores, starting with a letter',
    helperText:
      'The agent sees {prefix}_list_tables, {prefix}_describe_table and {prefix}_run_query.',
  }),
  description: field.string({
    label: 'What the database holds',
    multiline: true,
    helperText: 'Told to the agent with each tool, e.g. "The shop: orders, customers, products".',
  }),
  maxRows: field.number({
    label: 'Rows shown to the agent',
    min: 1,
    max: 500,
    defaultValue: 100,
  }),
}

/**
 * A Tool node for LLM agents: lets the agent look at a PostgreSQL or MySQL database of the
 * workspace (list its tables, describe one, run a read-only query) with the credentials of
 * the PostgreSQL and MySQL plugins.
 */
export default definePlugin({
  id: 'sql-toolkit',
  name: 'SQL toolkit',
  fullName: 'SQL toolkit for an AI agent',
  tags: ['agent', 'sql', 'database', 'query'],
  description: 'Lets an agent read a PostgreSQL or MySQL database',
  category: 'tool',
  scope: 'workspace',
  icon: 'search-code',
  version: 1,
  serves: ['workflow'],
  actions: {
    PostgreSQL: {
      label: 'PostgreSQL',
      options: {
        credentialsId: field.credentials({
          label: 'Database',
          credentialType: 'postgres',
          required: true,
        }),
        ...common,
      },
    },
    MySQL: {
      label: 'MySQL or MariaDB',
      options: {
        credentialsId: field.credentials({
          label: 'Database',
          credentialType: 'mysql',
          required: true,
        }),
        ...common,
      },
    },
  },
})
