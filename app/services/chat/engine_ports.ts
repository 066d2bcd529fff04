import { appUrl } from '#config/app'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { getPlan } from '#services/plans'
import { isEnabledIn, planSettings } from '#services/marketplace'
import { parseWithContext, runPlugin } from '#services/runner_context'
import { categoryOn, storedOptionsOf } from '#plugins/define_plugin'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import type { PluginRegistry } from '#plugins/registry'
import type { PlanName } from '#shared/plans'
import db from '@adonisjs/lucid/services/db'
import { publishedBotById } from './bot_cache.js'

/**
 * The chat engine's ports on the server: plugin runners through runner_context (with
 * credentials, guarded HTTP, storage, sandbox), the marketplace's per-plan switches,
 * and published bots from the cache.
 */

const CACHE_MS = 10_000

/** Which plan judges a workspace's bots: its creator's (docs/spec/01-app.md section 5). */
const workspacePlans = new Map<string, { plan: PlanName; at: number }>()
let marketplace: { settings: Awaited<ReturnType<typeof planSettings>>; at: number } | undefined

async function planOfWorkspace(workspaceId: string): Promise<PlanName> {
  const cached = workspacePlans.get(workspaceId)
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.plan
  const row = await db
    .from('workspaces')
    .leftJoin('users', 'users.id', 'workspaces.created_by')
    .where('workspaces.id', workspaceId)
    .select('users.plan as plan')
    .first()
  const plan = (await getPlan(row?.plan ?? 'FREE')).name as PlanName
  workspacePlans.set(workspaceId, { plan, at: Date.now() })
  return plan
}

async function marketplaceSettings() {
  if (!marketplace || Date.now() - marketplace.at > CACHE_MS) {
    marketplace = { settings: await planSettings(), at: Date.now() }
  }
  return marketplace.settings
}

export function forgetMarketplaceCache() {
  marketplace = undefined
  workspacePlans.clear()
}

export interface PortOptions {
  /** Preview runs the draft: linked bots are also read as drafts. */
  loadDraft?: (botId: string, from: EngineBot) => Promise<EngineBot | undefined>
}

export async function enginePorts(options: PortOptions = {}): Promise<EnginePorts> {
  const registry: PluginRegistry = await pluginRegistry()
  return {
    appUrl,
    newId,
    categoryOf(type) {
      const plugin = registry.get(type)
      if (!plugin || !plugin.serves.includes('bot')) return undefined
      return categoryOn(plugin, 'bot') as ReturnType<EnginePorts['categoryOf']>
    },
    showsContent(type) {
      return registry.get(type)?.showsContent === true
    },
    showsStreamedText: (type) => registry.get(type)?.showsStreamedText === true,
    async isAllowed(stored, bot) {
      // A block stored under a folded plugin's former id is judged as that plugin.
      const type = registry.canonicalId(stored)
      const settings = await marketplaceSettings()
      if (!settings.has(type)) return true
      return isEnabledIn(settings, type, await planOfWorkspace(bot.workspaceId))
    },
    async runBlock({ bot, block, variables, context }) {
      const plugin = registry.get(block.type)!
      const stored = plugin.storedIn === 'content' ? block.content : block.options
      const output = await runPlugin({
        registry,
        plugin,
        options: storedOptionsOf(
          plugin,
          block.type,
          (stored ?? {}) as Record<string, unknown>,
          'bot'
        ),
        variables,
        workspaceId: bot.workspaceId,
        ownerId: bot.ownerId,
        bot: context,
        runnerIsOptional: plugin.category === 'bubble' || plugin.category === 'input',
      })
      return {
        result: output.result as any,
        options: output.options,
        logs: output.logs,
        variablesSet: output.variablesSet,
        aiCreditLimitExceeded: output.aiCreditLimitExceeded,
      }
    },
    async parseAnswer({ bot, block, variables, context, input, answer }) {
      const plugin = registry.get(block.type)
      const parser = plugin ? await registry.parserOf(block.type) : undefined
      if (!plugin || !parser) {
        const text = answer.text.trim()
        return text
          ? {
              parsed: { status: 'success', value: text, attachedFileUrls: answer.attachedFileUrls },
              logs: [],
            }
          : { parsed: { status: 'fail', reason: 'Empty answer' }, logs: [] }
      }
      return parseWithContext(
        parser,
        {
          plugin,
          options: input.options,
          variables,
          workspaceId: bot.workspaceId,
          ownerId: bot.ownerId,
          bot: context,
        },
        answer
      )
    },
    async loadBot(botId, from) {
      if (options.loadDraft) return options.loadDraft(botId, from)
      const entry = await publishedBotById(botId)
      if (!entry || entry.bot.workspaceId !== from.workspaceId) return undefined
      return entry.bot
    },
  }
}
