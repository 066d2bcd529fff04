import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace workspace:plan <workspace|email>: the plans that apply there.
 * node ace workspace:plan <workspace|email> [PLAN] [--ends=YYYY-MM-DD] [--suspend|--unsuspend]
 *   [--credits=N]
 * The /admin/workspaces page from a shell: a workspace id sets the workspace's plan (what
 * applies to everyone in it), an e-mail the account's plan (how many workspaces the person
 * may create) and the plan of every workspace that person created (administer_plans.ts).
 * Every change is audited with 'cli' as its author.
 */
export default class WorkspacePlan extends BaseCommand {
  static commandName = 'workspace:plan'
  static description = "Set a workspace's or an account's plan, suspend, or grant AI credits"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Workspace id or account e-mail' })
  declare target: string

  @args.string({
    description: 'FREE, BASIC, STANDARD, ENTERPRIZE or UNLIMITED',
    required: false,
  })
  declare plan?: string

  @flags.string({ description: "End date of the plan (YYYY-MM-DD; default: the plan's duration)" })
  declare ends?: string

  @flags.boolean({ description: 'Suspend the workspace' })
  declare suspend?: boolean

  @flags.boolean({ description: 'Lift the suspension of the workspace' })
  declare unsuspend?: boolean

  @flags.string({
    description: 'AI credits to add (to the workspace creator for a workspace; negative removes)',
  })
  declare credits?: string

  async run() {
    const { PLAN_NAMES } = await import('#shared/plans')
    const { DateTime } = await import('luxon')
    const actions = await import('#actions/admin/administer_plans')

    const plan = this.plan?.trim().toUpperCase()
    if (plan && !(PLAN_NAMES as readonly string[]).includes(plan)) {
      return this.fail(`Unknown plan "${this.plan}": use one of ${PLAN_NAMES.join(', ')}`)
    }
    if (this.ends && !plan) return this.fail('--ends needs a PLAN')
    const endsAt = this.ends ? DateTime.fromISO(this.ends, { zone: 'utc' }).endOf('day') : null
    if (endsAt && !endsAt.isValid) return this.fail(`--ends must be a date such as 2027-12-31`)
    if (this.suspend && this.unsuspend) return this.fail('Pass --suspend or --unsuspend, not both')
    const credits = this.credits?.trim()
    if (credits !== undefined && (!/^-?\d+(\.\d+)?$/.test(credits) || Number(credits) === 0)) {
      return this.fail(`--credits must be a non-zero number (got "${credits}")`)
    }
    const target = await actions.findTarget(this.target ?? '')
    if (!target) return this.fail(`No workspace or account matches "${this.target}"`)
    if (!plan && !this.suspend && !this.unsuspend && credits === undefined) {
      return this.show(target)
    }
    if (target.type === 'user' && (this.suspend || this.unsuspend)) {
      return this.fail('Suspension applies to workspaces: pass a workspace id')
    }
    const name = target.type === 'workspace' ? target.model.name : target.model.email

    if (plan) {
      const { model, workspaces } = await actions.setPlan(actions.CLI_ACTOR, target, {
        plan: plan as (typeof PLAN_NAMES)[number],
        endsAt,
      })
      const until = model.planEndsAt?.toISODate()
      if (target.type === 'user') {
        this.logger.info(`${name}'s account is on ${model.plan} until ${until}`)
      }
      // What is enforced: the plan of each workspace (the same for everyone in it).
      for (const workspace of workspaces) {
        this.logger.info(
          `workspace ${workspace.name} (${workspace.id}) is on ${workspace.plan} until ${workspace.planEndsAt?.toISODate()}`
        )
      }
    }
    if (target.type === 'workspace' && (this.suspend || this.unsuspend)) {
      await actions.setSuspended(actions.CLI_ACTOR, target.model, !!this.suspend)
      this.logger.info(`${name} is ${this.suspend ? 'suspended' : 'no longer suspended'}`)
    }
    if (credits !== undefined) {
      const { default: User } = await import('#models/user')
      const user =
        target.type === 'user'
          ? target.model
          : target.model.createdBy
            ? await User.find(target.model.createdBy)
            : null
      if (!user) return this.fail(`${name} has no creator to grant credits to`)
      const balance = await actions.grantCredits(actions.CLI_ACTOR, user, credits)
      this.logger.info(`${user.email} now has ${balance} AI credits`)
    }
  }

  /** Without a change: the plans that apply, as planFor decides them. */
  private async show(
    target: Awaited<ReturnType<typeof import('#actions/admin/administer_plans').findTarget>>
  ) {
    const { planFor } = await import('#services/capabilities')
    const { default: Workspace } = await import('#models/workspace')
    if (!target) return
    const line = async (workspace: InstanceType<typeof Workspace>) => {
      const { plan, expired } = await planFor(null, workspace)
      const ends = workspace.planEndsAt?.toISODate() ?? 'no end'
      this.logger.info(
        `workspace ${workspace.name} (${workspace.id}): ${plan.name} until ${ends}${expired ? ' (expired)' : ''}`
      )
    }
    if (target.type === 'workspace') return line(target.model)
    const account = await planFor(target.model, null)
    this.logger.info(
      `${target.model.email}: account ${account.plan.name} (may create ${account.plan.limits.multipleWorkspace === -1 ? 'any number of' : account.plan.limits.multipleWorkspace} workspaces)`
    )
    const created = await Workspace.query()
      .where('created_by', target.model.id)
      .orderBy('created_at', 'asc')
    for (const workspace of created) await line(workspace)
  }

  private fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
