import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { planFor } from '#services/capabilities'
import { withinPlanLimit } from '#services/plan_limits'
import { assertPluginsEnabled } from '#services/marketplace'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { assertNoIssues, issuesOfBlocks } from '#plugins/block_issues'
import type { BlockIssue } from '#shared/block_issues'
import { type BotV6 } from '#shared/bot/types'
import { recordBotVersion } from './bot_history.js'
import { syncTelegramWebhook } from './connect_telegram.js'
import { track } from '#services/analytics/analytics'
import { contentOf, blockTypes, withBranding, publicIdIsFree } from './bots.js'

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
