import type { HttpClient } from './define_plugin.js'

/** What a plugin's credentials.ts `test` receives: the record as the runner would get it. */
export interface CredentialsTestContext {
  credentials: Record<string, unknown>
  http: HttpClient
  signal: AbortSignal
}

/** What a plugin's credentials.ts may export: a check that the key works (the Test button). */
export interface CredentialsModule {
  test?: (ctx: CredentialsTestContext) => Promise<{ ok: boolean; message?: string }>
}
