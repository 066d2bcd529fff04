import { definePlugin, field } from '#sdk/plugin'
import { sqlActions, sqlQueryAction } from '#sdk/data_fields'

/**
 * PostgreSQL: create a table, add, read, update and delete rows of a database of the
 * workspace; workflows may also run a query of their own with bound parameters. Values are
 * always bound, names checked and quoted, connections pooled per credential.
 */
export default definePlugin({
  id: 'postgres',
  name: 'PostgreSQL',
  fullName: 'PostgreSQL database',
  tags: ['database', 'sql', 'query', 'postgres'],
  description: 'Read and write the rows of a PostgreSQL database',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'database',
  version: 1,
  docsUrl: 'https://www.postgresql.org/docs/current/',
  serves: ['bot', 'workflow'],
  credentials: {
    url: field.string({
      label: 'Connection URL',
      secret: true,
      required: true,
      placeholder: 'postgres://user:password@host:5432/database',
      helperText: 'Add ?sslmode=require (or verify-full) to connect over TLS.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Database',
      credentialType: 'postgres',
      required: true,
    }),
  },
  actions: { ...sqlActions('INTEGER'), ...sqlQueryAction('$1') },
})
