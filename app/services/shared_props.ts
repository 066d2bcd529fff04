import type { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { toUserDto } from '#dtos/user_dto'
import { toWorkspaceDto, toWorkspaceSummaryDto } from '#dtos/workspace_dto'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { planUsage } from '#services/plan_limits'
import { enabledOAuthProviders } from '#services/oauth_providers'
import { smtpConfigured } from '#services/mailer'
import { viewerBaseUrl } from '#services/public_surface'
import { supportWidgetFor } from '#services/support_widget'
import type { ToastDto } from '#shared/types'

/**
 * Props every Inertia page receives. Only DTOs: nothing secret, nothing of other tenants.
 */
export const sharedProps = {
  user: (ctx: HttpContext) => (ctx.auth?.user ? toUserDto(ctx.auth.user) : null),
  workspaces: async (ctx: HttpContext) => {
    const user = ctx.auth?.user
    if (!user) return []
    const current = await resolveCurrentWorkspace(ctx, user)
    return current ? current.all.map((a) => toWorkspaceSummaryDto(a.workspace, a.role)) : []
  },
  currentWorkspace: async (ctx: HttpContext) => {
    const user = ctx.auth?.user
    if (!user) return null
    const current = await resolveCurrentWorkspace(ctx, user)
    return current ? toWorkspaceDto(current.workspace, current.role, user) : null
  },
  toast: (ctx: HttpContext) =>
    (ctx.session?.flashMessages.get('toast') as ToastDto | undefined) ?? null,
  errors: (ctx: HttpContext) => {
    const bag = (ctx.session?.flashMessages.get('errorsBag') ?? {}) as Record<string, string>
    const input = (ctx.session?.flashMessages.get('inputErrorsBag') ?? {}) as Record<
      string,
      string[] | string
    >
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(input)) out[k] = Array.isArray(v) ? v[0] : v
    for (const [k, v] of Object.entries(bag)) if (k !== 'E_VALIDATION_ERROR') out[k] = v
    return out
  },
  locale: (ctx: HttpContext) => ctx.i18n?.locale ?? 'en',
  devMailbox: () => !app.inProduction && !smtpConfigured(),
  oauthProviders: () => enabledOAuthProviders(),
  appVersion: () => process.env.npm_package_version ?? '0.1.0',
  viewerUrl: () => viewerBaseUrl(),
  docsUrl: () => env.get('DOCS_URL') || '/docs',
  // The support chat bubble: paid plans only, when an instance bot is configured.
  supportWidget: async (ctx: HttpContext) => {
    const user = ctx.auth?.user
    if (!user) return null
    const current = await resolveCurrentWorkspace(ctx, user)
    return current ? supportWidgetFor(user, current.workspace) : null
  },
  // Read by the buttons that create bots, workflows, workspaces and invitations: at a limit
  // they are disabled with the reason before any form is filled in.
  planUsage: async (ctx: HttpContext) => {
    const user = ctx.auth?.user
    if (!user) return null
    const current = await resolveCurrentWorkspace(ctx, user)
    return current ? planUsage(user, current.workspace) : null
  },
}
