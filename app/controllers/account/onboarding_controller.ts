import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { onboardingChecklist } from '#services/onboarding_checklist'

/** The onboarding checklist of the current workspace (docs/onboarding.md). */
export default class OnboardingController {
  /** GET /api/onboarding/checklist */
  async checklist(ctx: HttpContext) {
    const user = ctx.auth.user!
    const current = await resolveCurrentWorkspace(ctx, user)
    const dismissed = !!user.onboardingChecklistDismissedAt
    // Every account has a workspace; one left by all of them has nothing to check yet.
    if (!current) return { dismissed, items: [], completed: 0, total: 0 }
    return { dismissed, ...(await onboardingChecklist(current.workspace)) }
  }

  /** POST /api/onboarding/checklist/dismiss: the checklist stays closed on every device. */
  async dismiss({ auth, response }: HttpContext) {
    const user = auth.user!
    user.onboardingChecklistDismissedAt ??= DateTime.now()
    await user.save()
    return response.ok({ dismissed: true })
  }
}
