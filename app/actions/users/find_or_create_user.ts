import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import User from '#models/user'
import WorkspaceInvitation from '#models/workspace_invitation'
import BotInvitation from '#models/bot_invitation'
import WorkspaceMember from '#models/workspace_member'
import AppError from '#exceptions/app_error'
import CreateWorkspace from '#actions/workspaces/create_workspace'
import { defaultPlanName, getPlan, planEndDate } from '#services/plans'
import { isAdminEmail } from '#services/admins'
import { track } from '#services/analytics/analytics'

export function normaliseEmail(email: string) {
  return email.trim().toLowerCase()
}

export const signupDisabledError = () =>
  new AppError('Unauthorized', {
    status: 403,
    code: 'E_SIGNUP_DISABLED',
    description: 'Sign-ups are disabled.',
    field: 'email',
  })

/**
 * Whether a new account may be made for this e-mail: sign-ups open, or the person was
 * invited to a workspace or to a single bot (the invitation mail links to its editor, which
 * needs an account), or is an admin.
 */
export async function maySignUp(email: string) {
  if (!env.get('DISABLE_SIGNUP')) return true
  if (isAdminEmail(email)) return true
  const normalised = normaliseEmail(email)
  const invited = await WorkspaceInvitation.query().where('email', normalised).first()
  if (invited) return true
  return !!(await BotInvitation.query().where('email', normalised).first())
}

export default class FindOrCreateUser {
  /**
   * Returns the user with this e-mail, creating the account on first sign-in: the user gets
   * the default plan, every pending workspace invitation for the e-mail becomes a membership,
   * and a first workspace of their own is created.
   */
  async handle(emailInput: string, profile: { name?: string | null; image?: string | null } = {}) {
    const email = normaliseEmail(emailInput)
    const existing = await User.findBy('email', email)
    if (existing) return { user: existing, created: false }

    if (!(await maySignUp(email))) throw signupDisabledError()

    const plan = await getPlan(defaultPlanName())
    const user = await db.transaction(async (trx) => {
      const created = await User.create(
        {
          email,
          name: profile.name?.trim() || null,
          image: profile.image ?? null,
          plan: plan.name,
          planEndsAt: planEndDate(plan),
          graphNavigation: 'mouse',
          preferredAppAppearance: 'system',
          preferredLanguage: 'en',
          tourStatus: {},
        },
        { client: trx }
      )
      const invitations = await WorkspaceInvitation.query({ client: trx }).where('email', email)
      for (const invitation of invitations) {
        await WorkspaceMember.create(
          { workspaceId: invitation.workspaceId, userId: created.id, role: invitation.role },
          { client: trx }
        )
        await invitation.useTransaction(trx).delete()
      }
      return created
    })

    track({ name: 'User created', userId: user.id })
    await new CreateWorkspace().handle(user)
    return { user, created: true }
  }
}
