import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Sends the browser to the URL (a client-side action). */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const url = options.url?.trim()
  if (!url) {
    logger.error('Redirect: the URL is empty')
    return {}
  }
  const safe = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`
  if (/^javascript:/i.test(safe)) {
    logger.error('Redirect: javascript: URLs are not allowed')
    return {}
  }
  return {
    clientSideActions: [
      { type: 'redirect', redirect: { url: safe, isNewTab: Boolean(options.isNewTab) } },
    ],
  }
}
