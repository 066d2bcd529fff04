import { field } from './fields.js'

/**
 * The credentials of the Google plugins (browser and server; `#sdk/google_fields` in the app)
 * that sign in with an OAuth client of the builder's own Google Cloud project (Sheets, Calendar): the
 * client's id and secret, where Google's consent page, token endpoint and API live (tests and
 * proxies point them elsewhere), and the `oauth` declaration with the plugin's scopes.
 */

export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth'
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'

/** The manifest's `oauth`: offline access so that a refresh token comes back. */
export function googleOAuth(scopes: readonly string[]) {
  return {
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes,
    // prompt=consent: Google sends a refresh token again when an account reconnects.
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  } as const
}

/** The credential fields of a Google OAuth plugin; `baseUrl` is the API's. */
export function googleOAuthCredentials(apiBaseUrl: string) {
  return {
    clientId: field.string({
      label: 'OAuth client ID',
      required: true,
      placeholder: '1234-abc.apps.googleusercontent.com',
      helperText:
        "From an OAuth client (Web application) of your Google Cloud project; add this app's /settings/credentials/oauth/callback as an authorized redirect URI.",
    }),
    clientSecret: field.string({ label: 'OAuth client secret', secret: true, required: true }),
    baseUrl: field.string({ format: 'url', label: 'API base URL', defaultValue: apiBaseUrl }),
    authorizeUrl: field.string({
      format: 'url',
      label: 'Consent page URL',
      defaultValue: GOOGLE_AUTHORIZE_URL,
    }),
    tokenUrl: field.string({ format: 'url', label: 'Token URL', defaultValue: GOOGLE_TOKEN_URL }),
  }
}
