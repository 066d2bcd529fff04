import vine from '@vinejs/vine'

/**
 * Inputs of the Typebot-compatible management API (docs/migrating-from-typebot.md). Bot
 * content itself goes through importBot / updateBotValidator like our own API.
 */

const id = () => vine.string().trim().minLength(1).maxLength(64)

/** ?workspaceId= (lists, folder reads and deletes) and ?folderId= / ?parentFolderId=. */
export const typebotWorkspaceQueryValidator = vine.compile(
  vine.object({
    workspaceId: id(),
    folderId: id().optional(),
    parentFolderId: id().optional(),
  })
)

/** POST /typebots and /typebots/import: {workspaceId, typebot}. */
export const typebotCreateValidator = vine.compile(
  vine.object({
    workspaceId: id(),
    // Checked as bot content by importBot (create reads name and folderId only).
    typebot: vine.object({}).allowUnknownProperties().optional(),
  })
)

/** GET results: limit 1-500 there (ours pages by 200 at most), an opaque cursor. */
export const typebotResultsQueryValidator = vine.compile(
  vine.object({
    limit: vine.number().withoutDecimals().range([1, 500]).optional(),
    cursor: id().optional(),
    timeFilter: vine
      .enum([
        'today',
        'last7Days',
        'last30Days',
        'monthToDate',
        'lastMonth',
        'yearToDate',
        'allTime',
      ])
      .optional(),
    timeZone: vine.string().maxLength(64).optional(),
  })
)

/** DELETE results: ?resultIds=a,b (all results without it). */
export const typebotDeleteResultsValidator = vine.compile(
  vine.object({ resultIds: vine.string().trim().maxLength(100_000).optional() })
)

export const typebotFolderCreateValidator = vine.compile(
  vine.object({
    workspaceId: id(),
    folderName: vine.string().trim().maxLength(255).optional(),
    parentFolderId: id().nullable().optional(),
  })
)

export const typebotFolderUpdateValidator = vine.compile(
  vine.object({
    workspaceId: id(),
    folder: vine.object({
      name: vine.string().trim().minLength(1).maxLength(255).optional(),
      parentFolderId: id().nullable().optional(),
    }),
  })
)
