import vine from '@vinejs/vine'
import { PLAN_NAMES } from '#shared/plans'

/** /admin/workspaces: the search box. */
export const planAdminSearchValidator = vine.compile(
  vine.object({ q: vine.string().trim().maxLength(255).optional() })
)

/** A plan and, optionally, its end date (a day; the plan's duration from now when absent). */
export const setPlanValidator = vine.compile(
  vine.object({
    plan: vine.enum(PLAN_NAMES),
    endsAt: vine
      .date({ formats: ['YYYY-MM-DD'] })
      .afterOrEqual('today')
      // The TIMESTAMP columns of MySQL/MariaDB end in January 2038 (LATEST_PLAN_END).
      .beforeOrEqual('2037-12-31')
      .optional()
      .nullable(),
  })
)

export const setSuspendedValidator = vine.compile(vine.object({ suspended: vine.boolean() }))

/** A negative amount takes credits back; zero would change nothing and is refused. */
const nonZero = vine.createRule((value, _options, field) => {
  if (value === 0) field.report('The {{ field }} field must not be zero', 'nonZero', field)
})

export const grantCreditsValidator = vine.compile(
  vine.object({
    amount: vine.number().min(-1_000_000_000).max(1_000_000_000).use(nonZero()),
  })
)
