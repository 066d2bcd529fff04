import { definePlugin, field } from '#sdk/plugin'

export const LINKEDIN_DEFAULT_BASE_URL = 'https://api.linkedin.com'
export const LINKEDIN_DEFAULT_AUTHORIZE_URL = 'https://www.linkedin.com/oauth/v2/authorization'
export const LINKEDIN_DEFAULT_TOKEN_URL = 'https://www.linkedin.com/oauth/v2/accessToken'
/** Who the member is (openid, profile) and posting as them (w_member_social). */
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social'] as const
/** The version of LinkedIn's versioned REST API the requests ask for (YYYYMM). */
export const LINKEDIN_DEFAULT_API_VERSION = '202501'

/**
 * LinkedIn action of a workflow: shares a post (text, optionally with an article link) as
 * the member the credential belongs to, or as an organization page, visible to everyone or
 * to connections only, through LinkedIn's Posts API with an OAuth 2 token: the one Connect
 * fetched through LinkedIn's consent page with the credential's app (docs/plugins.md, "OAuth
 * credentials"), or one pasted from LinkedIn's token generator.
 */
export default definePlugin({
  id: 'linkedin',
  name: 'LinkedIn',
  fullName: 'LinkedIn posts',
  tags: ['social', 'post', 'share', 'network'],
  description: 'Share a post on LinkedIn',
  category: 'action',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl:
    'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api',
  serves: ['workflow'],
  credentials: {
    clientId: field.string({
      label: 'OAuth client ID',
      helperText:
        "From the Auth tab of your LinkedIn app, whose authorized redirect URLs list this app's /settings/credentials/oauth/callback; empty: the instance's LinkedIn app, if it has one. Save, then Connect signs in with LinkedIn.",
    }),
    clientSecret: field.string({ label: 'OAuth client secret', secret: true }),
    accessToken: field.string({
      label: 'Access token',
      secret: true,
      helperText:
        'Instead of Connect: a token from the OAuth token generator with the openid, profile and w_member_social scopes (60 days long).',
    }),
    refreshToken: field.string({
      label: 'Refresh token',
      secret: true,
      helperText: 'With the client ID and secret, new access tokens are fetched when needed.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'API base URL',
      defaultValue: LINKEDIN_DEFAULT_BASE_URL,
    }),
    authorizeUrl: field.string({
      format: 'url',
      label: 'Consent page URL',
      defaultValue: LINKEDIN_DEFAULT_AUTHORIZE_URL,
    }),
    tokenUrl: field.string({
      format: 'url',
      label: 'Token URL',
      defaultValue: LINKEDIN_DEFAULT_TOKEN_URL,
    }),
    apiVersion: field.string({
      label: 'API version',
      defaultValue: LINKEDIN_DEFAULT_API_VERSION,
      pattern: '^\\d{6}$',
      patternMessage: 'API version is a month, e.g. 202501',
    }),
  },
  // LinkedIn's authorization-code flow (3-legged OAuth). A token pasted in accessToken
  // serves as well, so such a record counts as connected.
  oauth: {
    authorizeUrl: LINKEDIN_DEFAULT_AUTHORIZE_URL,
    tokenUrl: LINKEDIN_DEFAULT_TOKEN_URL,
    scopes: LINKEDIN_SCOPES,
    tokenField: 'accessToken',
    // The operator's LinkedIn app (LINKEDIN_CLIENT_ID, LINKEDIN_CLIENT_SECRET) serves records
    // without a client of their own.
    appClientEnv: 'LINKEDIN',
  },
  options: {
    credentialsId: field.credentials({
      label: 'LinkedIn account',
      credentialType: 'linkedin',
      required: true,
    }),
  },
  actions: {
    'Share a post': {
      label: 'Share a post',
      options: {
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
          maxLength: 3000,
        }),
        visibility: field.enum({
          label: 'Visibility',
          options: [
            { label: 'Public', value: 'public' },
            { label: 'Connections only', value: 'connections' },
          ],
          defaultValue: 'public',
        }),
        articleUrl: field.string({
          label: 'Link',
          placeholder: 'https://…',
          allowVariables: true,
          helperText: 'An article shown under the text.',
        }),
        articleTitle: field.string({
          label: 'Link title',
          allowVariables: true,
          showIf: { field: 'articleUrl', notEmpty: true },
        }),
        author: field.string({
          label: 'Post as',
          placeholder: 'urn:li:organization:123456',
          allowVariables: true,
          helperText: 'An organization page you administer; empty: yourself.',
        }),
      },
    },
  },
})
