import vine from '@vinejs/vine'

export const pluginPlanValidator = vine.compile(
  vine.object({
    enabled: vine.boolean(),
  })
)

/** "Test the request": a block's type, its options and test values by variable id. */
export const testBlockValidator = vine.compile(
  vine.object({
    type: vine.string().trim().maxLength(100),
    options: vine.record(vine.any()).optional(),
    values: vine.record(vine.string().maxLength(10_000)).optional(),
  })
)
