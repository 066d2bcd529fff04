import type { CredentialsTestContext } from '#sdk/runner'
import { internalHostsAllowed, testSqlConnection } from '#sdk/data'

/** The Test button: connects with the URL and runs SELECT 1. */
export function test({ credentials }: CredentialsTestContext) {
  return testSqlConnection({
    engine: 'mysql',
    url: String(credentials.mysqlURL ?? ''),
    allowInternal: internalHostsAllowed(),
  })
}
