import { sqlRunners, workspaceSqliteFile } from '#sdk/data'

/** The SQL actions (shared by the SQL plugins, #sdk/data) on the workspace's own file. */
export default sqlRunners('sqlite', ({ credentials, workspaceId }) => ({
  engine: 'sqlite',
  url: workspaceSqliteFile(workspaceId, credentials.database),
  // A file of the workspace: no host to check.
  allowInternal: false,
}))
