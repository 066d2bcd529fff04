import env from '#start/env'
import { appUrl } from '#config/app'

/*
| Where bot-authored code runs (docs/security.md, "What runs where"). A published bot's
| head code, client-side Code and Set variable blocks and embed bubbles are its author's
| code: they must never run where a builder's session cookie is readable or sent.
|
| - With VIEWER_URL, public bot pages, /embed.js and the chat API are served on that
|   host, which never sets or receives the builder's cookies (host-only cookies of
|   APP_URL's host). The app's links and embed snippets point there.
| - Otherwise (one host), the public page is served with a CSP `sandbox` that leaves out
|   `allow-same-origin`: its scripts run in an opaque origin, with no access to the
|   app's cookies or storage, and their requests to the app are cross-site.
*/

function normalize(url: string | undefined) {
  return (url ?? '').trim().replace(/\/+$/, '')
}

let viewerUrl = normalize(env.get('VIEWER_URL'))

/** The viewer's public URL (VIEWER_URL), or '' when bots are served on the app's host. */
export function viewerBaseUrl() {
  return viewerUrl
}

/** `host[:port]` of VIEWER_URL, or '' without one. */
export function viewerHost() {
  if (!viewerUrl) return ''
  try {
    return new URL(viewerUrl).host.toLowerCase()
  } catch {
    return ''
  }
}

/** Whether a request's Host header names the viewer host. */
export function isViewerHost(host: string | null | undefined) {
  const viewer = viewerHost()
  return !!viewer && (host ?? '').toLowerCase() === viewer
}

/** Where the public page of `publicId` lives: VIEWER_URL, or this app. */
export function publicBotUrl(publicId: string) {
  return `${viewerUrl || appUrl}/${publicId}`
}

/**
 * Switches VIEWER_URL while the process runs (tests exercise both layouts against one
 * server); returns a function that puts the previous value back.
 */
export function overrideViewerUrl(url: string | undefined) {
  const previous = viewerUrl
  viewerUrl = normalize(url)
  return () => {
    viewerUrl = previous
  }
}

/**
 * The public page's CSP on a host where builders may hold a session. Scripts, forms,
 * popups (links in new tabs) and dialogs work as on any page; `allow-same-origin` is left
 * out, so the page's origin is opaque: no cookies, no storage, and every request it makes
 * to this app is cross-origin (the chat API answers those: config/cors.ts).
 */
export const PUBLIC_PAGE_SANDBOX =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads allow-presentation allow-pointer-lock allow-orientation-lock'

/**
 * The editor preview's script runner (resources/features/viewer/script_runner.ts): only
 * scripts, dialogs and new tabs, in an opaque origin, with no limit on what the scripts
 * themselves load (they are the bot's, as on the public page).
 */
export const SCRIPT_RUNNER_CSP = `sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-modals; default-src * data: blob: 'unsafe-inline' 'unsafe-eval'`
