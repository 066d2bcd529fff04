import env from '#start/env'
import { parseHostList, type GuardedHttpOptions } from '#plugins/guarded_http'

/** The list as last parsed, with the text it came from (read again only when that changes). */
let parsed: { raw: string | undefined; hosts: ReturnType<typeof parseHostList> } | undefined

/**
 * What the server's outgoing HTTP may reach beyond the public internet, for a call made with
 * a credential (an AI provider, an embedding model, a credential's Test): the operator's list
 * of internal hosts (CREDENTIAL_INTERNAL_HOSTS), or everything when ALLOW_INTERNAL_HTTP is set.
 * Calls made without a credential (the HTTP block, webhooks) get only the latter, so listing a
 * model server does not open it to every block.
 */
export function credentialEgress(): Pick<
  GuardedHttpOptions,
  'allowInternal' | 'allowedInternalHosts'
> {
  const raw = env.get('CREDENTIAL_INTERNAL_HOSTS')
  if (!parsed || parsed.raw !== raw) parsed = { raw, hosts: parseHostList(raw) }
  return { allowInternal: env.get('ALLOW_INTERNAL_HTTP'), allowedInternalHosts: parsed.hosts }
}
