import { definePlugin, field } from '#sdk/plugin'

export const LINKEDIN_DEFAULT_BASE_URL = 'https://api.linkedin.com'
export const LINKEDIN_DEFAULT_TOKEN_URL = 'https://www.linkedin.com/oauth/v2/accessToken'
/** The version of LinkedIn's versioned REST API the requests ask for (YYYYMM). */
export const LINKEDIN_DEFAULT_API_VERSION = '202501'

/**
 * LinkedIn action of a workflow: shares a post (text, optionally with an article link) as
 * the member the credential belongs to, or as an organization page, visible to everyone or
 * to connections only, through LinkedIn's Posts API with an OAuth 2 token.
 */
export default definePlugin({
  id: 'linkedin',
  name: 'LinkedIn',
  description: 'Share a post on LinkedIn',
  category: 'action',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl:
    'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api',
  serves: ['workflow'],
  credentials: {
    accessToken: field.string({
      label: 'Access token',
      secret: true,
      helperText: 'An OAuth token with the w_member_social and openid scopes (60 days long).',
    }),
    refreshToken: field.string({
      label: 'Refresh token',
      secret: true,
      helperText: 'With the client ID and secret, new access tokens are fetched when needed.',
    }),
    clientId: field.string({ label: 'OAuth client ID' }),
    clientSecret: field.string({ label: 'OAuth client secret', secret: true }),
    baseUrl: field.string({ label: 'API base URL', defaultValue: LINKEDIN_DEFAULT_BASE_URL }),
    tokenUrl: field.string({ label: 'Token URL', defaultValue: LINKEDIN_DEFAULT_TOKEN_URL }),
    apiVersion: field.string({
      label: 'API version',
      defaultValue: LINKEDIN_DEFAULT_API_VERSION,
      pattern: '^\\d{6}$',
      patternMessage: 'API version is a month, e.g. 202501',
    }),
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
