import { appUrl } from '#config/app'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { isPluginAllowedIn } from '#services/marketplace'
import { parseWithContext, runPlugin } from '#services/runner_context'
import { categoryOn, storedOptionsOf } from '#plugins/define_plugin'
import { issuesOfBlock } from '#plugins/block_issues'
import type { BlockIssue } from '#shared/block_issues'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import type { PluginRegistry } from '#plugins/registry'
import type { CapabilityTurn } from '#services/capability_stamp'
import { loopMaxIterations } from '#services/loop_limit'
import { publishedBotById } from './bot_cache.js'

/**
 * The chat engine's ports on the server: plugin runners through runner_context (with
 * credentials, guarded HTTP, storage, sandbox), the marketplace's per-plan switches
 * (marketplace.ts, shared with the editor and the workflow runtime), and published bots
 * from the cache.
 */

export interface PortOptions {
  /** Preview runs the draft: linked bots are also read as drafts. */
  loadDraft?: (botId: string, from: EngineBot) => Promise<EngineBot | undefined>
}

/**
 * A block's first issue, checked once per block object: a published bot's blocks are the
 * same objects turn after turn (bot_cache.ts) and never change, so their options are not
 * validated again at every turn. A draft is read afresh per turn, so it is checked afresh;
 * ports are made per plugin registry, and so is this memo.
 */
function blockChecks() {
  const checked = new WeakMap<object, Promise<BlockIssue | undefined>>()
  return (plugin: Parameters<typeof issuesOfBlock>[0], block: object) => {
    let issue = checked.get(block)
    if (!issue) {
      issue = issuesOfBlock(plugin, block as Parameters<typeof issuesOfBlock>[1], 'bot').then(
        (issues) => issues[0]
      )
      checked.set(block, issue)
      issue.catch(() => checked.delete(block))
    }
    return issue
  }
}

/** The server's ports, and the same ports for one chat turn (its capability checks). */
export interface ServerEnginePorts extends EnginePorts {
  /**
   * Ports whose plan checks share the turn's one read of the capability stamp
   * (capability_stamp.ts); the rest is these ports, shared by every turn.
   */
  forTurn(turn: CapabilityTurn): EnginePorts
}

export async function enginePorts(options: PortOptions = {}): Promise<ServerEnginePorts> {
  const registry: PluginRegistry = await pluginRegistry()
  const firstIssueOf = blockChecks()
  // A block stored under a folded plugin's former id is judged as that plugin.
  const isAllowed = (stored: string, bot: EngineBot, turn?: CapabilityTurn) =>
    isPluginAllowedIn(registry.canonicalId(stored), bot.workspaceId, turn)
  const ports: ServerEnginePorts = {
    forTurn(turn) {
      return { ...ports, isAllowed: (stored, bot) => isAllowed(stored, bot, turn) }
    },
    appUrl,
    newId,
    get maxLoopIterations() {
      return loopMaxIterations()
    },
    categoryOf(type) {
      const plugin = registry.get(type)
      if (!plugin || !plugin.serves.includes('bot')) return undefined
      return categoryOn(plugin, 'bot') as ReturnType<EnginePorts['categoryOf']>
    },
    showsContent(type) {
      return registry.get(type)?.showsContent === true
    },
    showsStreamedText: (type) => registry.get(type)?.showsStreamedText === true,
    isAllowed(stored, bot) {
      return isAllowed(stored, bot)
    },
    async runBlock({ bot, block, variables, context }) {
      const plugin = registry.get(block.type)!
      const stored = plugin.storedIn === 'content' ? block.content : block.options
      const runnerIsOptional = plugin.category === 'bubble' || plugin.category === 'input'
      if (!runnerIsOptional) {
        // Published before validation existed, or saved through an import: the runner gets
        // only options its fields accept (app/plugins/block_issues.ts).
        const issue = await firstIssueOf(plugin, block)
        if (issue) {
          return {
            result: undefined,
            options: (stored ?? {}) as Record<string, unknown>,
            logs: [{ status: 'error', description: `${plugin.name}: ${issue.message}` }],
            variablesSet: [],
          }
        }
      }
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
        runnerIsOptional,
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
  return ports
}
