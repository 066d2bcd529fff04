import env from '#start/env'

export type OAuthProvider = 'github' | 'google'

/** Providers whose keys are configured; only these show a button on /signin. */
export function enabledOAuthProviders(): OAuthProvider[] {
  const list: OAuthProvider[] = []
  if (env.get('GITHUB_CLIENT_ID') && env.get('GITHUB_CLIENT_SECRET')) list.push('github')
  if (env.get('GOOGLE_CLIENT_ID') && env.get('GOOGLE_CLIENT_SECRET')) list.push('google')
  return list
}
