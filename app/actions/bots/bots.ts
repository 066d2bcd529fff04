import { DateTime } from 'luxon'
import Bot from '#models/bot'
import Folder from '#models/folder'
import { assertFolderAccess } from '#actions/folders/folders'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { assertFeature, planFor, featureError } from '#services/capabilities'
import { withinPlanLimit, workspaceOwner } from '#services/plan_limits'
import { assertPluginsEnabled } from '#services/marketplace'
import { newId } from '#services/ids'
import {
  domainHost,
  hostProvesControl,
  isReservedHost,
  verificationRecord,
} from '#services/custom_domains'
import { pluginRegistry } from '#services/plugin_registry'
import { assertNoIssues, issuesOfBlocks } from '#plugins/block_issues'
import type { BlockIssue } from '#shared/block_issues'
import type { VersionKind } from '#shared/history/types'
import { claimRevision } from '#services/draft_revision'
import db from '@adonisjs/lucid/services/db'
import { createBotContent } from '#shared/bot/new_bot'
import { validateBot } from '#shared/bot/parse'
import { resolveSettings, type BotSettings, type BotV6 } from '#shared/bot/types'
import { botFieldProblems } from '#shared/bot/settings_bounds'
import { recordBotVersion } from './bot_history.js'
import { syncTelegramWebhook } from './bot_channels.js'
import { track } from '#services/analytics/analytics'
import { uniqueName } from '#actions/workspaces/default_workspace_name'

/** publicId: letters, digits, hyphen and dot. */
export const PUBLIC_ID_PATTERN = /^[a-zA-Z0-9.-]+$/
/**
 * An id a file brings: kept whatever its shape (other tools' ids, hand-written ones) as long
 * as it fits the id column and stays one path segment in our URLs.
 */
const IMPORTED_ID_PATTERN = /^[^\s/?#%\\"<>]{1,32}$/
/** A domain with an optional path. */
export const CUSTOM_DOMAIN_PATTERN =
  /^(?=.{1,253}(\/|$))([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(\/[\w\-./~%]*)?$/i

/** `Host/Path` as stored: the host in lower case (host names ignore case), the path as typed. */
function normalizeDomain(value: string) {
  const slash = value.indexOf('/')
  const host = (slash === -1 ? value : value.slice(0, slash)).toLowerCase()
  return slash === -1 ? host : host + value.slice(slash).replace(/\/+$/, '')
}

/**
 * Whether `bot` may ask for `domain`: well formed, not the app's own hosts, and not held
 * by another bot that proved it. Another workspace's verified host is refused whatever the
 * path: a path under it would shadow that tenant's pages.
 */
async function assertDomainClaimable(bot: Bot, domain: string) {
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

/**
 * Checks the TXT record of a bot's pending custom domain (docs/custom_domains.md) and, when
 * it holds the workspace's value, serves the bot there from now on.
 */
export class VerifyCustomDomain {
  async handle(bot: Bot) {
    if (!bot.customDomain) {
      throw new AppError('No custom domain', { status: 422, field: 'customDomain' })
    }
    // The rules may have changed since it was saved (a new VIEWER_URL, a host proven by another).
    await assertDomainClaimable(bot, bot.customDomain)
    if (bot.customDomainVerifiedAt) return bot
    const host = domainHost(bot.customDomain)
    if (!(await hostProvesControl(bot.workspaceId, host))) {
      // The record to add is in customDomainStatusOf (the Share panel, the API).
      throw new AppError('Domain not verified yet', {
        status: 422,
        description: 'The TXT record was not found yet. DNS changes can take a while to be seen.',
        field: 'customDomain',
      })
    }
    bot.customDomainVerifiedAt = DateTime.now()
    await bot.save()
    return bot
  }
}

/** What the Share panel and the API show about a bot's custom domain. */
export function customDomainStatusOf(bot: Bot) {
  if (!bot.customDomain) return { domain: null, status: null, record: null }
  return {
    domain: bot.customDomain,
    status: bot.customDomainVerifiedAt ? ('verified' as const) : ('pending' as const),
    verifiedAt: bot.customDomainVerifiedAt?.toISO() ?? null,
    record: verificationRecord(bot.workspaceId, domainHost(bot.customDomain)),
  }
}

type Content = Pick<BotV6, 'groups' | 'events' | 'edges' | 'variables' | 'theme' | 'settings'>

function contentOf(bot: BotV6): Content {
  return {
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
  }
}

function blockTypes(groups: BotV6['groups']) {
  return groups.flatMap((g) => g.blocks.map((b) => b.type))
}

/** The fields of a bot's blocks that their plugins' validators refuse (drafts keep them). */
export async function botIssues(groups: BotV6['groups']): Promise<BlockIssue[]> {
  return issuesOfBlocks(
    await pluginRegistry(),
    groups.flatMap((group) => group.blocks),
    'bot'
  )
}

/** Refuses to publish (or run) a bot whose blocks have issues, naming block and group. */
export async function assertBotHasNoIssues(
  groups: BotV6['groups'],
  doing: 'publishing' | 'running'
) {
  const registry = await pluginRegistry()
  assertNoIssues(await botIssues(groups), doing, (issue) => {
    const group = groups.find((g) => g.blocks.some((b) => b.id === issue.blockId))
    const name = registry.get(issue.blockType)?.name ?? issue.blockType
    return group?.title ? `${name} in "${group.title}"` : name
  })
}

/**
 * Parses against the bot schema, and checks the settings' and theme's numbers and formats
 * as the editor does (the API, files and copies get no further than the editor would); a
 * bot that does not pass is never saved.
 */
function assertValid(bot: BotV6) {
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
function withBranding(settings: BotSettings): BotSettings {
  return { ...settings, general: { ...settings.general, isBrandingEnabled: true } }
}

async function canRemoveBranding(actor: { user: User; workspace: Workspace | null }) {
  return (await planFor(actor.user, actor.workspace)).plan.features.brandingRemoval
}

/**
 * What a restore (of the published copy or of a history version) may put back over the
 * draft: a copy saved before the server checked bounds and formats goes no further, and the
 * badge stays on for plans without brandingRemoval.
 */
export async function restorable<T extends { settings?: unknown; theme?: unknown }>(
  content: T,
  actor?: { user: User; workspace: Workspace | null }
): Promise<T> {
  const outOfBounds = botFieldProblems(content)[0]
  if (outOfBounds) {
    throw new AppError('Cannot restore', {
      status: 422,
      code: 'E_INVALID_BOT',
      description: `${outOfBounds.path}: ${outOfBounds.message}`,
      field: outOfBounds.path,
    })
  }
  if (actor && content.settings && !(await canRemoveBranding(actor))) {
    return { ...content, settings: withBranding(content.settings as BotSettings) }
  }
  return content
}

async function publicIdIsFree(publicId: string, exceptBotId?: string) {
  const taken = await Bot.query()
    .where('public_id', publicId)
    .if(exceptBotId, (q) => q.whereNot('id', exceptBotId!))
    .first()
  return !taken
}

async function generatePublicId(name: string) {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'bot'
  for (;;) {
    const candidate = `${base}-${newId().slice(-7)}`
    if (await publicIdIsFree(candidate)) return candidate
  }
}

/** A folder of the workspace that `user` (when known) may put bots in (docs/folder_sharing.md). */
async function assertFolderIn(
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

export interface BotPatch extends Partial<Content> {
  name?: string
  icon?: string | null
  folderId?: string | null
  publicId?: string | null
  customDomain?: string | null
  isArchived?: boolean
  isClosed?: boolean
  resultsTablePreferences?: Record<string, unknown> | null
  selectedThemeTemplateId?: string | null
  /**
   * The draft revision the editor loaded: the content is saved only while it is still the
   * stored one (docs/editor.md "Saving from two places").
   */
  revision?: number
}

export class UpdateBot {
  /**
   * With `actor`, blocks added by this save must be enabled on the actor's plan; blocks the
   * bot already had stay editable (and removable) after an admin disables their plugin.
   */
  async handle(
    bot: Bot,
    patch: BotPatch,
    actor?: { user: User; workspace: Workspace },
    /** 'assistant': the copilot's change, kept as a version of its own (docs/copilot.md). */
    options: { kind?: VersionKind } = {}
  ) {
    let contentChanged = false
    if (actor && patch.groups) {
      const before = new Set(blockTypes(bot.groups))
      const added = blockTypes(patch.groups).filter((type) => !before.has(type))
      if (added.length > 0) {
        const { plan } = await planFor(actor.user, actor.workspace)
        await assertPluginsEnabled(added, plan)
      }
    }
    if (
      patch.groups ||
      patch.events ||
      patch.edges ||
      patch.variables ||
      patch.theme ||
      patch.settings
    ) {
      if (patch.settings && actor && !(await canRemoveBranding(actor))) {
        // The editor's rule: the switch is locked on. Turning it off is refused; a bot that
        // has it off from before (an older save, a downgrade) gets it back on.
        const wanted = (patch.settings as BotSettings).general?.isBrandingEnabled
        if (wanted === false && resolveSettings(bot.settings).general?.isBrandingEnabled) {
          throw featureError('brandingRemoval', 'settings.general.isBrandingEnabled')
        }
        patch = { ...patch, settings: withBranding(patch.settings) }
      }
      if (
        actor &&
        (patch.settings as BotSettings | undefined)?.general?.isBrandingEnabled === false &&
        resolveSettings(bot.settings).general?.isBrandingEnabled !== false
      ) {
        track({
          name: 'Branding removed',
          userId: actor.user.id,
          workspaceId: bot.workspaceId,
          properties: { botId: bot.id },
        })
      }
      const next = assertValid({
        version: '6',
        name: patch.name ?? bot.name,
        groups: patch.groups ?? bot.groups,
        events: patch.events ?? bot.events,
        edges: patch.edges ?? bot.edges,
        variables: patch.variables ?? bot.variables,
        theme: patch.theme ?? bot.theme,
        settings: patch.settings ?? bot.settings,
      } as BotV6)
      contentChanged = true
      bot.merge(contentOf(next))
      // Saved content is always v6: a bot migrated on open is stored migrated from now on.
      bot.version = '6'
    }
    if (patch.name !== undefined) bot.name = patch.name.trim() || bot.name
    if (patch.icon !== undefined) bot.icon = patch.icon
    if (patch.folderId !== undefined)
      bot.folderId = await assertFolderIn(bot.workspaceId, patch.folderId, actor?.user)
    if (patch.publicId !== undefined) {
      if (patch.publicId !== null) {
        if (!PUBLIC_ID_PATTERN.test(patch.publicId)) {
          throw new AppError('Invalid public ID', {
            status: 422,
            description: 'Only letters, digits, hyphens and dots are allowed.',
            field: 'publicId',
          })
        }
        if (!(await publicIdIsFree(patch.publicId, bot.id))) {
          throw new AppError('Public ID already taken', { status: 409, field: 'publicId' })
        }
      }
      bot.publicId = patch.publicId
    }
    if (patch.customDomain !== undefined) {
      if (patch.customDomain !== null && actor) {
        await assertFeature(actor.user, actor.workspace, 'customDomain')
      }
      const domain = patch.customDomain === null ? null : normalizeDomain(patch.customDomain)
      if (domain !== null) await assertDomainClaimable(bot, domain)
      if (domain !== bot.customDomain) {
        bot.customDomain = domain
        // A new domain is served only once its host is proven (VerifyCustomDomain).
        bot.customDomainVerifiedAt = null
      }
    }
    if (patch.isClosed !== undefined) bot.isClosed = patch.isClosed
    if (patch.resultsTablePreferences !== undefined)
      bot.resultsTablePreferences = patch.resultsTablePreferences
    if (patch.selectedThemeTemplateId !== undefined)
      bot.selectedThemeTemplateId = patch.selectedThemeTemplateId
    if (patch.isArchived === false && bot.isArchived) {
      // Back from the archive it counts against botCreation again, like a new bot.
      const judge = actor ?? (await workspaceOwner(bot.workspaceId))
      return withinPlanLimit(judge, 'botCreation', async (trx) => {
        bot.useTransaction(trx)
        bot.isArchived = false
        if (contentChanged) await claimRevision('bots', bot, patch.revision, trx)
        await bot.save()
        return bot
      })
    }
    if (patch.isArchived !== undefined) bot.isArchived = patch.isArchived
    if (contentChanged) {
      await db.transaction(async (trx) => {
        bot.useTransaction(trx)
        await claimRevision('bots', bot, patch.revision, trx)
        await bot.save()
      })
    } else {
      await bot.save()
    }
    // A builder's save lands in their open draft version of the history.
    if (contentChanged && actor) await recordBotVersion(bot, actor.user, { kind: options.kind })
    return bot
  }
}

export class DuplicateBot {
  async handle(user: User, workspace: Workspace, bot: Bot) {
    return new CreateBot().handle(user, workspace, {
      name: `${bot.name} (copy)`,
      folderId: bot.folderId,
      content: { version: '6', name: bot.name, ...contentOf(bot as unknown as BotV6) } as BotV6,
    })
  }
}

export class PublishBot {
  /** Stores the published copy the chat engine runs; the bot gets a publicId if it has none. */
  async handle(user: User, workspace: Workspace, bot: Bot) {
    const existing = await PublishedBot.findBy('bot_id', bot.id)
    const { plan } = await planFor(user, workspace)
    await assertPluginsEnabled(blockTypes(bot.groups), plan)
    await assertBotHasNoIssues(bot.groups, 'publishing')
    if (!bot.publicId) {
      bot.publicId = await generatePublicId(bot.name)
      await bot.save()
    }
    const content = { version: bot.version, ...contentOf(bot as unknown as BotV6) }
    if (!plan.features.brandingRemoval) content.settings = withBranding(content.settings)
    let published: PublishedBot
    if (existing) {
      existing.merge(content)
      await existing.save()
      published = existing
    } else {
      published = await withinPlanLimit({ user, workspace }, 'botPublish', async (trx) => {
        // A concurrent publish of this same bot got there first: update its copy.
        const raced = await PublishedBot.query({ client: trx }).where('bot_id', bot.id).first()
        if (raced) {
          raced.merge(content)
          await raced.save()
          return raced
        }
        return PublishedBot.create({ botId: bot.id, ...content }, { client: trx })
      })
    }
    await recordBotVersion(bot, user, { kind: 'publish' })
    // Telegram's webhook follows the published settings (docs/channels.md).
    await syncTelegramWebhook(bot.id)
    track({
      name: 'Bot published',
      userId: user.id,
      workspaceId: workspace.id,
      properties: { botId: bot.id, firstTime: !existing },
    })
    return published
  }
}

export class UnpublishBot {
  async handle(bot: Bot) {
    const existing = await PublishedBot.findBy('bot_id', bot.id)
    if (!existing)
      throw new AppError('Error while unpublishing bot', {
        status: 400,
        description: 'The bot is not published.',
      })
    await existing.delete()
    await syncTelegramWebhook(bot.id)
  }
}

/** Restores the published content over the draft (engine 6 only), keeping the draft's metadata. */
export class RestorePublishedBot {
  async handle(bot: Bot, actor?: { user: User; workspace: Workspace }) {
    const published = await PublishedBot.findBy('bot_id', bot.id)
    if (!published) throw AppError.notFound('Published version not found')
    if (published.version !== '6') {
      throw new AppError('Cannot restore', {
        status: 400,
        description: 'Only bots of engine version 6 can be restored.',
      })
    }
    const content = await restorable(contentOf(published as unknown as BotV6), actor)
    await db.transaction(async (trx) => {
      bot.useTransaction(trx)
      bot.merge(content)
      await claimRevision('bots', bot, undefined, trx)
      await bot.save()
    })
    await recordBotVersion(bot, actor?.user ?? null, { kind: 'restore' })
    return bot
  }
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
