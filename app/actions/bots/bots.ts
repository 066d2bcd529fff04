import { DateTime } from 'luxon'
import Bot from '#models/bot'
import Folder from '#models/folder'
import { assertFolderAccess } from '#actions/folders/folders'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { planFor } from '#services/capabilities'
import { domainHost, isReservedHost } from '#services/custom_domains'
import { validateBot } from '#shared/bot/parse'
import { type BotSettings, type BotV6 } from '#shared/bot/types'
import { botFieldProblems } from '#shared/bot/settings_bounds'

/** publicId: letters, digits, hyphen and dot. */
export const PUBLIC_ID_PATTERN = /^[a-zA-Z0-9.-]+$/
/** A domain with an optional path. */
export const CUSTOM_DOMAIN_PATTERN =
  /^(?=.{1,253}(\/|$))([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(\/[\w\-./~%]*)?$/i

/**
 * Whether `bot` may ask for `domain`: well formed, not the app's own hosts, and not held
 * by another bot that proved it. Another workspace's verified host is refused whatever the
 * path: a path under it would shadow that tenant's pages.
 */
export async function assertDomainClaimable(bot: Bot, domain: string) {
  if (!CUSTOM_DOMAIN_PATTERN.test(domain)) {
    throw new AppError('Invalid domain', {
      status: 422,
      description: 'Enter a domain like bot.example.com, with an optional path.',
      field: 'customDomain',
    })
  }
  const host = domainHost(domain)
  if (isReservedHost(host)) {
    throw new AppError('This domain cannot be used', {
      status: 422,
      description: "The app's own domains and their subdomains cannot be a bot's domain.",
      field: 'customDomain',
    })
  }
  const taken = await Bot.query()
    .whereNot('id', bot.id)
    .whereNotNull('custom_domain_verified_at')
    .where((query) =>
      query
        .where('custom_domain', domain)
        .orWhere((other) =>
          other
            .whereNot('workspace_id', bot.workspaceId)
            .where((hosts) =>
              hosts.where('custom_domain', host).orWhere('custom_domain', 'like', `${host}/%`)
            )
        )
    )
    .first()
  if (taken) throw new AppError('Domain already used', { status: 409, field: 'customDomain' })
}

export type Content = Pick<
  BotV6,
  'groups' | 'events' | 'edges' | 'variables' | 'theme' | 'settings'
>

export function contentOf(bot: BotV6): Content {
  return {
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
  }
}

export function blockTypes(groups: BotV6['groups']) {
  return groups.flatMap((g) => g.blocks.map((b) => b.type))
}

/**
 * Parses against the bot schema, and checks the settings' and theme's numbers and formats
 * as the editor does (the API, files and copies get no further than the editor would); a
 * bot that does not pass is never saved.
 */
export function assertValid(bot: BotV6) {
  const checked = validateBot(bot)
  const first = checked.ok ? botFieldProblems(checked.bot)[0] : checked.errors[0]
  if (!checked.ok || first) {
    throw new AppError('Error while updating bot', {
      status: 422,
      code: 'E_INVALID_BOT',
      description: first
        ? `${first.path}: ${first.message}`
        : 'The bot does not match the bot format.',
      field: first?.path,
    })
  }
  return checked.bot
}

/** The badge stays on for plans without brandingRemoval, whatever a file or a copy says. */
export function withBranding(settings: BotSettings): BotSettings {
  return { ...settings, general: { ...settings.general, isBrandingEnabled: true } }
}

export async function canRemoveBranding(actor: { user: User; workspace: Workspace | null }) {
  return (await planFor(actor.user, actor.workspace)).plan.features.brandingRemoval
}

export async function publicIdIsFree(publicId: string, exceptBotId?: string) {
  const taken = await Bot.query()
    .where('public_id', publicId)
    .if(exceptBotId, (q) => q.whereNot('id', exceptBotId!))
    .first()
  return !taken
}

/** A folder of the workspace that `user` (when known) may put bots in (docs/folder_sharing.md). */
export async function assertFolderIn(
  workspaceId: string,
  folderId: string | null | undefined,
  user?: User
) {
  if (!folderId) return null
  const folder = await Folder.query()
    .where('id', folderId)
    .where('workspace_id', workspaceId)
    .first()
  if (!folder)
    throw new AppError('Folder not found', { status: 404, code: 'E_NOT_FOUND', field: 'folderId' })
  if (user) await assertFolderAccess(user, folder, 'edit', 'folderId')
  return folder.id
}

export function publishedAt(published: PublishedBot | null | undefined): DateTime | null {
  return published?.updatedAt ?? null
}

/** Which of these bots have a published copy (one query for a whole list). */
export async function publishedBotIds(bots: Pick<Bot, 'id'>[]): Promise<Set<string>> {
  if (bots.length === 0) return new Set()
  const rows = await PublishedBot.query()
    .whereIn(
      'bot_id',
      bots.map((b) => b.id)
    )
    .select('bot_id')
  return new Set(rows.map((row) => row.botId))
}
