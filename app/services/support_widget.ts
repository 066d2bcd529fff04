import env from '#start/env'
import { appUrl } from '#config/app'
import { PLAN_LABELS } from '#shared/plans'
import { viewerBaseUrl } from '#services/public_surface'
import { planFor } from '#services/capabilities'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import type { SupportWidgetDto } from '#shared/onboarding'

function trimSlash(url: string | undefined) {
  return (url ?? '').trim().replace(/\/+$/, '')
}

/** An avatar stored by the app is a path of this host: the support bot gets a full URL. */
function absoluteUrl(url: string | null) {
  if (!url) return ''
  if (/^https?:\/\//i.test(url)) return url
  return `${trimSlash(appUrl)}/${url.replace(/^\/+/, '')}`
}

function supportBotId() {
  return (env.get('SUPPORT_BOT_PUBLIC_ID') ?? '').trim()
}

function supportViewerUrl() {
  return trimSlash(env.get('SUPPORT_VIEWER_URL')) || viewerBaseUrl() || trimSlash(appUrl)
}

/**
 * The one script of another host the builder's pages may run (config/shield.ts): the embed
 * library of the support bot's viewer host, by its exact URL; 'self' when there is none.
 */
export function supportScriptSource() {
  return supportBotId() ? `${supportViewerUrl()}/embed.js` : `'self'`
}

/**
 * The support chat bubble (paid plans only; it loads from a separate bot-viewer
 * host): one of this instance's published bots, SUPPORT_BOT_PUBLIC_ID, served from
 * SUPPORT_VIEWER_URL, else VIEWER_URL, else this host. Null on Free and when not configured.
 */
export async function supportWidgetFor(
  user: User,
  workspace: Workspace
): Promise<SupportWidgetDto | null> {
  const publicId = supportBotId()
  if (!publicId) return null
  const { plan } = await planFor(user, workspace)
  if (plan.name === 'FREE') return null
  return {
    publicId,
    viewerUrl: supportViewerUrl(),
    prefilledVariables: {
      userId: user.id,
      firstName: (user.name ?? '').trim().split(/\s+/)[0] ?? '',
      email: user.email,
      avatarUrl: absoluteUrl(user.image),
      planLabel: PLAN_LABELS[plan.name] ?? plan.label,
      workspaceId: workspace.id,
    },
  }
}
