import type { HttpContext } from '@adonisjs/core/http'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import Workspace from '#models/workspace'
import { toBotJson, toPublishedContentDto } from '#dtos/bot_dto'
import { roleIn } from '#services/workspace_access'
import { invitationFor, memberModeOnBot } from '#policies/bot_policy'
import { userModeForInvitation } from '#models/bot_invitation'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { planFor } from '#services/capabilities'
import { availabilityFor } from '#services/marketplace'
import { botIssues } from '#actions/bots/publish_bot'
import { pluginRegistry } from '#services/plugin_registry'
import { defaultItemsOf, editorViewOf } from '#plugins/derive'
import type { UserMode } from '#shared/workspace_roles'
import { BOT_FORMAT_VERSION, migrateBot } from '#shared/bot/migrate'
import { categoryOn } from '#plugins/define_plugin'

const TABS = ['edit', 'theme', 'settings', 'results'] as const

type BotPlugin = ReturnType<Awaited<ReturnType<typeof pluginRegistry>>['forBots']>[number]

/*
 * A plugin as the editor gets it, derived once per plugin (the registry is built once):
 * every editor page sends all of them, and deriving 40 forms on each open is wasted work.
 */
const described = new WeakMap<BotPlugin, ReturnType<typeof deriveDescription>>()
function deriveDescription(p: BotPlugin) {
  return {
    id: p.id,
    name: p.name,
    fullName: p.fullName,
    tags: p.tags,
    category: categoryOn(p, 'bot'),
    icon: p.icon ?? null,
    ...editorViewOf(p, 'bot'),
    defaultItems: defaultItemsOf(p),
  }
}
function describe(p: BotPlugin) {
  let description = described.get(p)
  if (!description) {
    description = deriveDescription(p)
    described.set(p, description)
  }
  return description
}

/**
 * /bots/{id}/edit|theme|settings. These paths are exempt from the sign-in redirect: members get their mode (write or read), people invited to the bot the mode of
 * their invitation; anyone else sees the flow read-only
 * in guest mode when the builder made it public ("Make the flow publicly available"),
 * and a not-found page otherwise.
 */
export default class EditorController {
  async show(ctx: HttpContext) {
    // /bots/{id}/results/analytics: the Results tab opened on its analytics (a page ending in
    // /analytics: it owns the viewport like the editor's other tabs).
    const analytics = ctx.request.url().endsWith('/results/analytics')
    const tab = analytics
      ? 'results'
      : (TABS.find((t) => ctx.request.url().endsWith(`/${t}`)) ?? 'edit')
    const bot = await Bot.find(ctx.params.id)
    const user = ctx.auth.user
    const workspaceRole = bot && user ? await roleIn(user, bot.workspaceId) : null
    // A member whose folder is not shared with them counts as an outsider (docs/folder_sharing.md).
    const memberMode =
      bot && user && workspaceRole ? await memberModeOnBot(user, bot, workspaceRole) : null
    const role = memberMode ? workspaceRole : null
    // Someone invited to this bot alone gets the invitation's mode.
    const invitation = bot && user && role === null ? await invitationFor(user, bot.id) : null
    const isPublic = !!(bot?.settings as any)?.publicShare?.isEnabled
    if (!bot || (role === null && !invitation && !isPublic)) {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Bot not found' })
    }
    const mode: UserMode = memberMode
      ? memberMode
      : invitation
        ? userModeForInvitation(invitation.type)
        : 'guest'
    // Results are for workspace members only, even when the flow is shared publicly.
    if (tab === 'results' && mode === 'guest') {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Bot not found' })
    }
    if (user && role) await resolveCurrentWorkspace(ctx, user, bot.workspaceId)

    // The published bot is fetched only for read or write modes.
    const published = mode === 'guest' ? null : await PublishedBot.findBy('bot_id', bot.id)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    const registry = await pluginRegistry()
    const planDefinition = (await planFor(user ?? null, workspace)).plan
    const availability = await availabilityFor(planDefinition)
    const plugins = registry
      .forBots()
      .filter((p) => availability.get(p.id) !== 'hidden')
      .map((p) => ({ ...describe(p), locked: availability.get(p.id) === 'locked' }))

    // Opened with migrateToLatestVersion: an older bot is shown as v6;
    // the stored row changes only when the builder saves (the editor says so).
    const stored = toBotJson(bot)
    const editable =
      bot.version === BOT_FORMAT_VERSION ? stored : { ...stored, ...migrateBot(stored), id: bot.id }

    return ctx.inertia.render('bots/edit', {
      tab,
      resultsView: analytics ? 'analytics' : 'table',
      bot: editable,
      storedVersion: bot.version,
      currentUserMode: mode,
      published: published ? toPublishedContentDto(published) : null,
      plugins,
      issues: mode === 'guest' ? [] : await botIssues(editable.groups),
      // The Settings tab lets only plans with brand removal turn the branding off.
      canRemoveBranding: planDefinition.features.brandingRemoval,
    })
  }
}
