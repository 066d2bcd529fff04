/**
 * Endpoints called from other sites with no cookie session: the public chat API, the
 * webhook URLs. CSRF does not apply to them (config/shield.ts), and the web session,
 * CSRF cookies and session sign-in are skipped for them (app/middleware/web_session_*):
 * a chat turn pays for none of that (random secrets, two encrypted cookies).
 */
export const PUBLIC_API: readonly RegExp[] = [
  /^\/api\/v1\/typebots\/[^/]+\/startChat/,
  /^\/api\/v1\/bots\/[^/]+\/startChat/,
  /^\/api\/v[12]\/sessions\//,
  /^\/api\/v1\/workflows\/[^/]+\/webhook/,
  // Event triggers: services such as Telegram and Slack call them (the plugin checks them).
  /^\/api\/v1\/workflows\/[^/]+\/events\//,
  // Messaging channels of bots: Telegram and Meta call them (checked per channel).
  /^\/api\/v1\/channels\//,
  // Plugin sessions: a service calls them back (a voice call's turns; the plugin checks them).
  /^\/api\/v1\/plugins\/[^/]+\/sessions\//,
  // Stripe's events; their signature is checked (app/actions/billing/handle_stripe_event.ts).
  /^\/api\/stripe\/webhook$/,
  /^\/api\/v1\/typebots\/[^/]+\/blocks\/[^/]+\/results\/[^/]+\/executeWebhook/,
]

export function isPublicApiPath(path: string) {
  return PUBLIC_API.some((pattern) => pattern.test(path))
}
