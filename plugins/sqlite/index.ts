import { definePlugin, field } from '#sdk/plugin'
import { sqlActions, sqlQueryAction } from '#sdk/data_fields'

/**
 * SQLite: a database file kept in the workspace's storage (on the server's disk), with the
 * actions of the other SQL nodes and a query of your own. No server to run or to reach.
 */
export default definePlugin({
  id: 'sqlite',
  name: 'SQLite',
  fullName: 'SQLite database',
  tags: ['database', 'sql', 'query', 'file'],
  description: "Read and write the rows of a SQLite database kept in the workspace's storage",
  category: 'data',
  scope: 'workspace',
  icon: 'database',
  version: 1,
  docsUrl: 'https://www.sqlite.org/lang.html',
  serves: ['workflow'],
  credentials: {
    database: field.string({
      label: 'Database file',
      required: true,
      placeholder: 'crm.sqlite3',
      pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\\.(sqlite3?|db))?$',
      patternMessage: 'Letters, digits, "-" and "_", optionally ending in .sqlite, .sqlite3 or .db',
      helperText: 'Created on first use, in this workspace only.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Database',
      credentialType: 'sqlite',
      required: true,
    }),
  },
  actions: { ...sqlActions('INTEGER'), ...sqlQueryAction('?') },
})
