import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/**
 * Schemes that run code or carry a whole document instead of going somewhere: a redirect
 * to one of them would run the bot author's code in the visitor's page
 * (docs/security.md).
 */
const REFUSED_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'blob', 'file'])

/** The scheme as a browser reads it: tabs, newlines and leading controls ignored. */
function schemeOf(url: string) {
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020]/g, '')
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(compact)
  return match ? match[1].toLowerCase() : null
}

/** Sends the browser to the URL (a client-side action). */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const url = options.url?.trim()
  if (!url) {
    logger.error('Redirect: the URL is empty')
    return {}
  }
  const scheme = schemeOf(url)
  if (scheme && REFUSED_SCHEMES.has(scheme)) {
    logger.error(`Redirect: ${scheme}: URLs are not allowed`)
    return {}
  }
  const safe = scheme ? url : `https://${url}`
  return {
    clientSideActions: [
      { type: 'redirect', redirect: { url: safe, isNewTab: Boolean(options.isNewTab) } },
    ],
  }
}
