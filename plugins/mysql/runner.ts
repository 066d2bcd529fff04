import { internalHostsAllowed, sqlRunners, SQL_API_CALLS } from '#sdk/data'

/** The SQL actions (shared by the SQL plugins, #sdk/data) on the credential's database. */
export default sqlRunners('mysql', ({ credentials }) => ({
  engine: 'mysql',
  url: String(credentials.mysqlURL ?? ''),
  allowInternal: internalHostsAllowed(),
}))

/** /api/mysql/{createTable|insertRecord|findRecord|updateRecord|deleteRecord}. */
export const apiCalls = SQL_API_CALLS
