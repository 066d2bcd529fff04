import vine from '@vinejs/vine'

const id = () => vine.string().trim().minLength(1).maxLength(64)
const filter = {
  search: vine.string().trim().maxLength(200).optional(),
  /** Also views without answers and archived results. */
  includeAll: vine.boolean().optional(),
}

/** GET results (query string): a page after `cursor`. */
export const listResultsValidator = vine.compile(
  vine.object({
    limit: vine.number().withoutDecimals().range([1, 200]).optional(),
    cursor: id().optional(),
    ...filter,
  })
)

/** The results an action applies to: `ids`, or `all` those matching the filter. */
const selection = {
  ids: vine.array(id()).maxLength(100_000).optional(),
  all: vine.boolean().optional(),
  ...filter,
}

export const resultsSelectionValidator = vine.compile(vine.object(selection))

export const exportResultsValidator = vine.compile(
  vine.object({
    ...selection,
    columns: vine.array(vine.string().maxLength(64)).maxLength(1000).optional(),
  })
)
