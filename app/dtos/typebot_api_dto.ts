import type Bot from '#models/bot'
import type Folder from '#models/folder'
import type PublishedBot from '#models/published_bot'
import type Result from '#models/result'
import type Answer from '#models/answer'
import type ResultLog from '#models/result_log'
import { toAnswerDto, toResultApiDto, toResultLogDto } from '#dtos/result_dto'

/**
 * The objects of the Typebot-compatible management API (docs/migrating-from-typebot.md):
 * the JSON field names that API's clients read, filled from our records.
 */

/** Typebot's answer to a done action: a value its clients compare, not a text for people. */
const SUCCESS = 'success' as const
export const successReply = () => ({ message: SUCCESS })

export function toTypebotDto(bot: Bot) {
  return {
    version: bot.version,
    id: bot.id,
    name: bot.name,
    events: bot.events,
    groups: bot.groups,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    selectedThemeTemplateId: bot.selectedThemeTemplateId ?? null,
    settings: bot.settings,
    createdAt: bot.createdAt.toISO()!,
    updatedAt: bot.updatedAt.toISO()!,
    icon: bot.icon,
    folderId: bot.folderId,
    publicId: bot.publicId,
    customDomain: bot.customDomain,
    workspaceId: bot.workspaceId,
    resultsTablePreferences: bot.resultsTablePreferences ?? null,
    isArchived: bot.isArchived,
    isClosed: bot.isClosed,
    whatsAppCredentialsId: bot.whatsappCredentialsId ?? null,
    riskLevel: bot.riskLevel ?? null,
  }
}

/** A row of the list: name, icon, id, the access of the caller, the published copy's id. */
export function toTypebotSummaryDto(
  bot: Bot,
  publishedId: string | undefined,
  accessRight: 'read' | 'write'
) {
  return {
    name: bot.name,
    icon: bot.icon,
    id: bot.id,
    accessRight,
    publishedTypebotId: publishedId ?? null,
  }
}

export function toPublishedTypebotDto(published: PublishedBot) {
  return {
    id: published.id,
    version: published.version,
    typebotId: published.botId,
    groups: published.groups,
    events: published.events,
    edges: published.edges,
    variables: published.variables,
    theme: published.theme,
    settings: published.settings,
    createdAt: published.createdAt.toISO()!,
    updatedAt: published.updatedAt.toISO()!,
  }
}

export function toTypebotResultDto(result: Result, answers: Answer[]) {
  const base = toResultApiDto(result, answers)
  return {
    id: base.id,
    createdAt: base.createdAt,
    typebotId: result.botId,
    variables: base.variables,
    isCompleted: base.isCompleted,
    hasStarted: base.hasStarted,
    isArchived: result.isArchived,
    lastChatSessionId: result.lastChatSessionId,
    answers: answers.map((answer) => {
      const dto = toAnswerDto(answer)
      return {
        blockId: dto.blockId,
        content: dto.content,
        attachedFileUrls: dto.attachedFileUrls,
      }
    }),
  }
}

/** Logs carry `details` as a text there: objects are sent as their JSON. */
export function toTypebotLogDto(log: ResultLog) {
  const dto = toResultLogDto(log)
  return {
    id: String(dto.id),
    createdAt: dto.createdAt,
    resultId: log.resultId,
    status: dto.status,
    description: dto.description,
    details:
      dto.details === null || typeof dto.details === 'string'
        ? dto.details
        : JSON.stringify(dto.details),
  }
}

export function toTypebotFolderDto(folder: Folder) {
  return {
    id: folder.id,
    createdAt: folder.createdAt.toISO()!,
    updatedAt: folder.updatedAt.toISO()!,
    name: folder.name,
    parentFolderId: folder.parentFolderId,
    workspaceId: folder.workspaceId,
  }
}
