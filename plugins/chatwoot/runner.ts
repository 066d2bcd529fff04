import type { Runner } from '#sdk/plugin'
import { CHATWOOT_DEFAULT_BASE_URL } from './index.js'
import type plugin from './index.js'

/**
 * The widget runs in the visitor's browser: this returns the `chatwoot` client-side action
 * (resources/embed/host_actions.ts carries it out). `scriptToExecute` does the same for
 * chat API clients that run scripts instead: load the SDK once, run it with the token, then
 * open (with the visitor's details) or close the widget.
 */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const task = options.task === 'Close widget' ? 'Close widget' : 'Show widget'
  if (task === 'Close widget') {
    return {
      clientSideActions: [
        {
          type: 'chatwoot',
          chatwoot: {
            task,
            scriptToExecute: {
              content: "if (window.$chatwoot) window.$chatwoot.toggle('close')",
              args: [],
            },
          },
        },
      ],
    }
  }
  const websiteToken = options.websiteToken?.trim()
  if (!websiteToken) {
    logger.error('Chatwoot: the website token is empty')
    return {}
  }
  let baseUrl: string
  try {
    const url = new URL(options.baseUrl?.trim() || CHATWOOT_DEFAULT_BASE_URL)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme')
    baseUrl = url.origin
  } catch {
    logger.error(`Chatwoot: "${options.baseUrl}" is not a valid URL`)
    return {}
  }
  const user = Object.fromEntries(
    Object.entries(options.user ?? {})
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : ''])
      .filter(([, value]) => value !== '')
  ) as Record<string, string>
  const details = {
    email: user.email,
    name: user.name,
    avatar_url: user.avatarUrl,
    phone_number: user.phoneNumber,
  }
  const settings = JSON.stringify({ websiteToken, baseUrl })
  const content = [
    'const open = () => {',
    user.id
      ? `  window.$chatwoot.setUser(${JSON.stringify(user.id)}, ${JSON.stringify(details)})`
      : '',
    "  window.$chatwoot.toggle('open')",
    '}',
    'if (window.$chatwoot) return open()',
    "window.addEventListener('chatwoot:ready', open, { once: true })",
    'if (window.chatwootSDK) return window.chatwootSDK.run(' + settings + ')',
    "const script = document.createElement('script')",
    `script.src = ${JSON.stringify(`${baseUrl}/packs/js/sdk.js`)}`,
    'script.async = true',
    `script.onload = () => window.chatwootSDK.run(${settings})`,
    'document.head.appendChild(script)',
  ]
    .filter(Boolean)
    .join('\n')
  return {
    clientSideActions: [
      {
        type: 'chatwoot',
        chatwoot: {
          task,
          baseUrl,
          websiteToken,
          ...(Object.keys(user).length > 0 ? { user } : {}),
          scriptToExecute: { content, args: [] },
        },
      },
    ],
  }
}
