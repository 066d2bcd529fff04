import type { BotTemplate } from '#services/bot_templates'
import type { BotTemplateSummary } from '#shared/bot/templates'

export function toBotTemplateSummary(template: BotTemplate): BotTemplateSummary {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    category: template.category,
    emoji: template.emoji,
    groupCount: template.bot.groups.length,
    blockCount: template.bot.groups.reduce((total, group) => total + group.blocks.length, 0),
  }
}
