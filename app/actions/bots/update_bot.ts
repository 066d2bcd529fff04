import Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { assertFeature, planFor, featureError } from '#services/capabilities'
import { withinPlanLimit, workspaceOwner } from '#services/plan_limits'
import { assertPluginsEnabled } from '#services/marketplace'
import type { VersionKind } from '#shared/history/types'
import { claimRevision } from '#services/draft_revision'
import db from '@adonisjs/lucid/services/db'
import { resolveSettings, type BotSettings, type BotV6 } from '#shared/bot/types'
import { recordBotVersion } from './bot_history.js'
import { track } from '#services/analytics/analytics'
import {
  PUBLIC_ID_PATTERN,
  assertDomainClaimable,
  Content,
  contentOf,
  blockTypes,
  assertValid,
  withBranding,
  canRemoveBranding,
  publicIdIsFree,
  assertFolderIn,
} from './bots.js'

/** `Host/Path` as stored: the host in lower case (host names ignore case), the path as typed. */
function normalizeDomain(value: string) {
  const slash = value.indexOf('/')
  const host = (slash === -1 ? value : value.slice(0, slash)).toLowerCase()
  return slash === -1 ? host : host + value.slice(slash).replace(/\/+$/, '')
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
