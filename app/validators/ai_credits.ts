import vine from '@vinejs/vine'

/**
 * Tokens per credit: above zero (zero would divide by zero), at most the 6 decimals the
 * column keeps.
 */
const tokensPerCredit = () => vine.number().positive().min(0.000001).max(1_000_000_000_000)

/**
 * A row of the AI price table (/admin/ai-prices). `priceId` is the row being edited, so
 * that it does not collide with its own model name.
 */
export const aiPriceValidator = vine.withMetaData<{ priceId?: number }>().compile(
  vine.object({
    model: vine
      .string()
      .trim()
      .minLength(1)
      .maxLength(191)
      .unique({
        table: 'ai_model_prices',
        column: 'model',
        filter: (query, _value, field) => {
          if (field.meta.priceId !== undefined) query.whereNot('id', field.meta.priceId)
        },
      }),
    inputToken: tokensPerCredit(),
    outputToken: tokensPerCredit(),
  })
)

/** "Add credits to a user": an existing account's e-mail and a positive amount. */
export const grantAiCreditsValidator = vine.compile(
  vine.object({
    email: vine
      .string()
      .trim()
      .toLowerCase()
      .email()
      .exists({ table: 'users', column: 'email', caseInsensitive: true }),
    // Credits keep 9 decimals: a smaller amount would add nothing.
    amount: vine.number().positive().min(0.000000001).max(1_000_000_000),
  })
)
