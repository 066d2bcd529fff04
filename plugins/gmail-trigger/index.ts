import { definePlugin, field } from '#sdk/plugin'

export const GMAIL_DEFAULT_BASE_URL = 'https://gmail.googleapis.com'
export const GOOGLE_DEFAULT_TOKEN_URL = 'https://oauth2.googleapis.com/token'

/**
 * Starts a run per new e-mail of a Gmail mailbox. Gmail pushes only through Google Cloud
 * Pub/Sub, so the trigger polls: every few minutes it lists the messages matching the
 * search filter and runs once for each it has not seen (remembered per workflow in the
 * database). Messages already there at activation start nothing.
 */
export default definePlugin({
  id: 'gmail-trigger',
  name: 'Gmail trigger',
  fullName: 'Gmail new email trigger',
  tags: ['email', 'google', 'inbox', 'event'],
  description: 'Start the workflow when a new e-mail arrives in Gmail',
  category: 'trigger',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://developers.google.com/gmail/api/reference/rest/v1/users.messages/list',
  serves: ['workflow'],
  credentials: {
    accessToken: field.string({
      label: 'Access token',
      secret: true,
      helperText:
        'An OAuth access token with the gmail.readonly scope. Enough alone for a test; it expires after an hour.',
    }),
    refreshToken: field.string({
      label: 'Refresh token',
      secret: true,
      helperText: 'With the client ID and secret, new access tokens are fetched when needed.',
    }),
    clientId: field.string({ label: 'OAuth client ID' }),
    clientSecret: field.string({ label: 'OAuth client secret', secret: true }),
    baseUrl: field.string({
      format: 'url',
      label: 'Gmail API base URL',
      defaultValue: GMAIL_DEFAULT_BASE_URL,
    }),
    tokenUrl: field.string({
      format: 'url',
      label: 'Token URL',
      defaultValue: GOOGLE_DEFAULT_TOKEN_URL,
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Gmail account',
      credentialType: 'gmail-trigger',
      required: true,
    }),
    query: field.string({
      label: 'Search filter',
      placeholder: 'in:inbox from:orders@example.com',
      defaultValue: 'in:inbox',
      helperText: "Gmail's search syntax; empty: every new message of the mailbox.",
    }),
    pollMinutes: field.number({
      label: 'Check every how many minutes',
      min: 1,
      max: 59,
      step: 1,
      defaultValue: 1,
    }),
  },
})
