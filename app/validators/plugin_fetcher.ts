import vine from '@vinejs/vine'

/** The body of a fetcher call: the block's options as the editor holds them. */
export const runFetcherValidator = vine.compile(
  vine.object({
    workspaceId: vine.string().trim().maxLength(64).optional(),
    options: vine.object({}).allowUnknownProperties().optional(),
  })
)
