import vine from '@vinejs/vine'

export const pluginPlanValidator = vine.compile(
  vine.object({
    enabled: vine.boolean(),
  })
)
