import env from '#start/env'
import { appUrl } from '#config/app'
import { defineConfig, services } from '@adonisjs/ally'

/**
 * OAuth providers. A provider is offered on /signin only when its keys are set
 * (see enabledOAuthProviders in app/services/oauth_providers.ts).
 */
const githubUrl = (env.get('GITHUB_URL') || 'https://github.com').replace(/\/$/, '')
const githubApiUrl = (env.get('GITHUB_API_URL') || 'https://api.github.com').replace(/\/$/, '')

const allyConfig = defineConfig({
  // GITHUB_URL / GITHUB_API_URL point at a GitHub Enterprise Server when set.
  github: services.github({
    authorizeUrl: `${githubUrl}/login/oauth/authorize`,
    accessTokenUrl: `${githubUrl}/login/oauth/access_token`,
    userInfoUrl: `${githubApiUrl}/user`,
    userEmailUrl: `${githubApiUrl}/user/emails`,
    clientId: env.get('GITHUB_CLIENT_ID') ?? '',
    clientSecret: env.get('GITHUB_CLIENT_SECRET') ?? '',
    callbackUrl: `${appUrl}/auth/github/callback`,
    scopes: ['user:email'],
  }),
  google: services.google({
    clientId: env.get('GOOGLE_CLIENT_ID') ?? '',
    clientSecret: env.get('GOOGLE_CLIENT_SECRET') ?? '',
    callbackUrl: `${appUrl}/auth/google/callback`,
    scopes: ['openid', 'email', 'profile'],
  }),
})

export default allyConfig

declare module '@adonisjs/ally/types' {
  interface SocialProviders extends InferSocialProviders<typeof allyConfig> {}
}
