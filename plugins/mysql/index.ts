import { definePlugin, field } from '#sdk/plugin'
import { sqlActions, sqlQueryAction } from '#sdk/data_fields'

/**
 * MySQL (and MariaDB): create a table, add, read, update and delete rows of a database of
 * the workspace; workflows may also run a query of their own with bound parameters. Values
 * are always bound, names checked and quoted, connections pooled per credential.
 */
export default definePlugin({
  id: 'mysql',
  name: 'MySQL',
  fullName: 'MySQL database',
  tags: ['database', 'sql', 'query', 'mariadb'],
  description: 'Read and write the rows of a MySQL or MariaDB database',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'database',
  version: 1,
  docsUrl: 'https://dev.mysql.com/doc/',
  serves: ['bot', 'workflow'],
  credentials: {
    mysqlURL: field.string({
      label: 'Connection URL',
      secret: true,
      required: true,
      placeholder: 'mysql://user:password@host:3306/database',
      helperText: 'Add ?ssl=true to connect over TLS.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Database',
      credentialType: 'mysql',
      required: true,
    }),
  },
  actions: { ...sqlActions('INT'), ...sqlQueryAction('?') },
})
