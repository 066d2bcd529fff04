import vine from '@vinejs/vine'
import { BILLING_PERIODS, PAID_PLANS, TAX_ID_TYPES } from '#shared/billing'

/** The pre-checkout modal: plan, period, company, e-mail, tax id. */
export const checkoutValidator = vine.compile(
  vine.object({
    plan: vine.enum(PAID_PLANS),
    period: vine.enum(BILLING_PERIODS),
    company: vine.string().trim().minLength(1).maxLength(200),
    email: vine.string().trim().email().maxLength(254),
    taxIdType: vine
      .enum(TAX_ID_TYPES.map((t) => t.type))
      .optional()
      .requiredIfExists('taxId'),
    taxId: vine.string().trim().minLength(2).maxLength(64).optional().requiredIfExists('taxIdType'),
  })
)
