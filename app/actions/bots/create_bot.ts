import Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { withinPlanLimit } from '#services/plan_limits'
import { createBotContent } from '#shared/bot/new_bot'
import { type BotV6 } from '#shared/bot/types'
import { track } from '#services/analytics/analytics'
import { uniqueName } from '#actions/workspaces/default_workspace_name'
import {
  PUBLIC_ID_PATTERN,
  contentOf,
  assertValid,
  withBranding,
  canRemoveBranding,
  publicIdIsFree,
  assertFolderIn,
} from './bots.js'

/**
 * An id a file brings: kept whatever its shape (other tools' ids, hand-written ones) as long
 * as it fits the id column and stays one path segment in our URLs.
 */
const IMPORTED_ID_PATTERN = /^[^\s/?#%\\"<>]{1,32}$/

export class CreateBot {
  /**
   * Creates a bot from scratch, a template or an imported file (already migrated to v6).
   * With `keepIds`, an imported bot keeps its own id and publicId when they are free, so
   * bots that link each other by id import as a set.
   */
  async handle(
    user: User,
    workspace: Workspace,
    input: {
      name?: string | null
      folderId?: string | null
      content?: BotV6
      keepIds?: boolean
      /** A file imported beside its original: " (1)", " (2)"… keep the two apart in the list. */
      uniqueName?: boolean
    }
  ) {
    const source = input.content ?? createBotContent({ name: input.name ?? undefined })
    let name = input.name?.trim() || source.name || 'My bot'
    if (input.uniqueName) {
      const taken = await Bot.query()
        .where('workspace_id', workspace.id)
        .where('is_archived', false)
        .select('name')
      name = uniqueName(
        name,
        taken.map((row) => row.name)
      )
    }
    const bot = assertValid({ ...source, name })
    if (!(await canRemoveBranding({ user, workspace }))) bot.settings = withBranding(bot.settings)
    const folderId = await assertFolderIn(workspace.id, input.folderId, user)

    let id: string | undefined
    let publicId: string | null = null
    if (input.keepIds) {
      const wantedId = (bot as { id?: unknown }).id
      if (
        typeof wantedId === 'string' &&
        IMPORTED_ID_PATTERN.test(wantedId) &&
        !(await Bot.find(wantedId))
      ) {
        id = wantedId
      }
      const wanted = (bot as any).publicId
      if (
        typeof wanted === 'string' &&
        PUBLIC_ID_PATTERN.test(wanted) &&
        (await publicIdIsFree(wanted))
      ) {
        publicId = wanted
      }
    }
    const created = await withinPlanLimit({ user, workspace }, 'botCreation', (trx) =>
      Bot.create(
        {
          ...(id ? { id } : {}),
          workspaceId: workspace.id,
          folderId,
          createdBy: user.id,
          name: bot.name,
          icon: (bot as any).icon ?? null,
          version: bot.version,
          publicId,
          customDomain: null,
          ...contentOf(bot),
          isArchived: false,
          isClosed: false,
        },
        { client: trx }
      )
    )
    track({
      name: 'Bot created',
      userId: user.id,
      workspaceId: workspace.id,
      properties: { botId: created.id },
    })
    return created
  }
}
