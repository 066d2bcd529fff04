import type { HttpContext } from '@adonisjs/core/http'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import Workspace from '#models/workspace'
import { toBotJson } from '#dtos/bot_dto'
import { roleIn } from '#services/workspace_access'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { effectivePlan } from '#services/capabilities'
import { availabilityFor } from '#services/marketplace'
import { pluginRegistry } from '#services/plugin_registry'
import { defaultsOf, defaultItemsOf, formOf } from '#plugins/derive'
import { userModeForRole, type UserMode } from '#shared/workspace_roles'

const TABS = ['edit', 'theme', 'settings'] as const

/**
 * /bots/{id}/edit|theme|settings. These paths are exempt from the sign-in redirect (spec 01
 * section 2): members get their mode (write or read); anyone else sees the flow read-only
 * in guest mode when the builder made it public ("Make the flow publicly available"),
 * and a not-found page otherwise.
 */
export default class EditorController {
  async show(ctx: HttpContext) {
    const tab = TABS.find((t) => ctx.request.url().endsWith(`/${t}`)) ?? 'edit'
    const bot = await Bot.find(ctx.params.id)
    const user = ctx.auth.user
    const role = bot && user ? await roleIn(user, bot.workspaceId) : null
    const isPublic = !!(bot?.settings as any)?.publicShare?.isEnabled
    if (!bot || (role === null && !isPublic)) {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Bot not found' })
    }
    const mode: UserMode = role ? userModeForRole(role) : 'guest'
    if (user && role) await resolveCurrentWorkspace(ctx, user, bot.workspaceId)

    // The published bot is fetched only for read or write modes (spec 01 section 4).
    const published = mode === 'guest' ? null : await PublishedBot.findBy('bot_id', bot.id)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    const registry = await pluginRegistry()
    const plan = user && role ? (await effectivePlan(user, workspace)).plan.name : workspace.plan
    const availability = await availabilityFor(plan)
    const plugins = registry
      .forBots()
      .filter((p) => availability.get(p.id) !== 'hidden')
      .map((p) => ({
        id: p.id,
        name: p.name,
        category: p.category,
        icon: p.icon ?? null,
        locked: availability.get(p.id) === 'locked',
        defaults: defaultsOf(p),
        defaultItems: defaultItemsOf(p),
        form: formOf(p),
      }))

    return ctx.inertia.render('bots/edit', {
      tab,
      bot: toBotJson(bot),
      currentUserMode: mode,
      published: published
        ? {
            version: published.version,
            groups: published.groups,
            events: published.events,
            edges: published.edges,
            variables: published.variables,
            theme: published.theme,
            settings: published.settings,
            publishedAt: published.updatedAt.toISO(),
          }
        : null,
      plugins,
    })
  }
}
