import { internalHostsAllowed, sqlRunners, SQL_API_CALLS } from '#sdk/data'

/** The SQL actions (shared by the SQL plugins, #sdk/data) on the credential's database. */
export default sqlRunners('postgres', ({ credentials }) => ({
  engine: 'postgres',
  url: String(credentials.url ?? ''),
  allowInternal: internalHostsAllowed(),
}))

/** /api/postgres/{createTable|insertRecord|findRecord|updateRecord|deleteRecord}. */
export const apiCalls = SQL_API_CALLS
