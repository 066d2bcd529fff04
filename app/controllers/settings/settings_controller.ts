import type { HttpContext } from '@adonisjs/core/http'
import WorkspaceMember from '#models/workspace_member'
import WorkspaceInvitation from '#models/workspace_invitation'
import { listApiTokens } from '#actions/api_tokens/api_tokens'
import { twoFactorStatus } from '#actions/users/two_factor'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { planFor } from '#services/capabilities'
import { toInvitationDto, toMemberDto } from '#dtos/workspace_dto'
import { PHOTO_MAX_BYTES } from '#validators/user'
import { credentialsTabProps } from '#controllers/settings/credentials_controller'
import { aiUsageSummary } from '#services/ai/credits'
import { billingTab, canManageBilling, listInvoices } from '#services/billing/billing'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import type { InvoiceDto } from '#shared/billing'

/** The invoices list of Billing & Usage: only the workspace's ADMINs read it. */
async function invoicesOf(
  user: User,
  workspace: Workspace
): Promise<{ items: InvoiceDto[]; error: string | null }> {
  if (!(await canManageBilling(user, workspace))) return { items: [], error: null }
  try {
    return { items: await listInvoices(workspace), error: null }
  } catch (error) {
    return { items: [], error: (error as Error).message }
  }
}

export const SETTINGS_TABS = {
  account: ['profile', 'preferences', 'security', 'keys', 'credentials', 'billing'],
  workspace: ['setting', 'member'],
} as const

/**
 * The settings modal: one page, one tab per route, over the dashboard.
 */
export default class SettingsController {
  async show(ctx: HttpContext) {
    const { section, tab } = ctx.params as { section: keyof typeof SETTINGS_TABS; tab: string }
    if (!SETTINGS_TABS[section] || !(SETTINGS_TABS[section] as readonly string[]).includes(tab)) {
      return ctx.response.redirect('/settings/account/profile')
    }
    const user = ctx.auth.user!
    const current = await resolveCurrentWorkspace(ctx, user)
    const props: Record<string, unknown> = { section, tab, photoMaxBytes: PHOTO_MAX_BYTES }

    if (tab === 'keys') {
      props.apiTokens = await listApiTokens(user)
      props.createdToken = ctx.session.flashMessages.get('createdToken') ?? null
    }
    if (tab === 'security') {
      props.twoFactor = await twoFactorStatus(user)
      props.recoveryCodes = ctx.session.flashMessages.get('recoveryCodes') ?? null
    }
    if (tab === 'credentials' && current) {
      Object.assign(props, await credentialsTabProps(user, current.workspace.id))
    }
    if (tab === 'member' && current) {
      const members = await WorkspaceMember.query()
        .where('workspace_id', current.workspace.id)
        .preload('user')
        .orderBy('created_at', 'asc')
      const invitations = await WorkspaceInvitation.query()
        .where('workspace_id', current.workspace.id)
        .orderBy('created_at', 'asc')
      props.members = members.map((m) => toMemberDto(m, current.workspace))
      props.invitations = invitations.map(toInvitationDto)
      const { plan } = await planFor(user, current.workspace)
      props.memberLimit = plan.limits.multipleUser
    }
    if (tab === 'billing') {
      // Deferred: the tab shows at once, the AI usage (the user's own) follows.
      props.aiUsage = ctx.inertia.defer(() => aiUsageSummary(user.id))
    }
    if (tab === 'billing' && current) {
      const { plan, expired } = await planFor(user, current.workspace)
      props.plan = plan
      props.planExpired = expired
      const billing = await billingTab(user, current.workspace)
      props.billing = billing
      // Deferred: Stripe answers after the tab shows; a failure shows in the list's place.
      if (billing.enabled && billing.canManage) {
        props.invoices = ctx.inertia.defer(() => invoicesOf(user, current.workspace))
      }
    }
    return ctx.inertia.render('settings/index', props)
  }
}
