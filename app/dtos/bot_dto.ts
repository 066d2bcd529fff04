import type Bot from '#models/bot'
import type Folder from '#models/folder'
import type PublishedBot from '#models/published_bot'
import type BotVersion from '#models/bot_version'
import type { UserMode } from '#shared/workspace_roles'
import type { BotHistoryDto, BotVersionDto } from '#shared/history/types'
import type { BotSnapshot } from '#shared/bot/types'
import { authorOf } from '#dtos/workflow_dto'

export function toFolderDto(folder: Folder) {
  return {
    id: folder.id,
    name: folder.name,
    parentFolderId: folder.parentFolderId,
    isRestricted: folder.isRestricted,
    createdAt: folder.createdAt.toISO()!,
  }
}

export function toBotSummaryDto(bot: Bot, published: boolean) {
  return {
    id: bot.id,
    name: bot.name,
    icon: bot.icon,
    folderId: bot.folderId,
    publicId: bot.publicId,
    isPublished: published,
    isArchived: !!bot.isArchived,
    isClosed: !!bot.isClosed,
    createdAt: bot.createdAt.toISO()!,
    updatedAt: bot.updatedAt.toISO()!,
  }
}

/** The whole bot as the open v6 JSON (what export writes and import reads). */
export function toBotJson(bot: Bot) {
  return {
    version: bot.version,
    id: bot.id,
    name: bot.name,
    icon: bot.icon,
    folderId: bot.folderId,
    workspaceId: bot.workspaceId,
    publicId: bot.publicId,
    customDomain: bot.customDomain,
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
    selectedThemeTemplateId: bot.selectedThemeTemplateId,
    resultsTablePreferences: bot.resultsTablePreferences,
    isArchived: !!bot.isArchived,
    isClosed: !!bot.isClosed,
    riskLevel: bot.riskLevel,
    revision: bot.revision ?? 0,
    createdAt: bot.createdAt.toISO()!,
    updatedAt: bot.updatedAt.toISO()!,
  }
}

export function toBotDto(bot: Bot, mode: UserMode, published: PublishedBot | null) {
  return {
    bot: toBotJson(bot),
    currentUserMode: mode,
    publishedAt: published?.updatedAt.toISO() ?? null,
  }
}

export function toBotVersionDto(version: BotVersion): BotVersionDto<BotSnapshot> {
  return {
    id: version.id,
    versionName: version.versionName,
    kind: version.kind,
    content: version.content,
    author: authorOf(version.userId ? version.user : null),
    createdAt: version.createdAt.toISO()!,
    updatedAt: version.updatedAt.toISO()!,
  }
}

export function toBotHistoryDto(versions: BotVersion[]): BotHistoryDto<BotSnapshot> {
  return { versions: versions.map(toBotVersionDto) }
}

/** The published version as the editor compares it with the draft (unpublished changes). */
export function toPublishedContentDto(published: PublishedBot) {
  return {
    version: published.version,
    groups: published.groups,
    events: published.events,
    edges: published.edges,
    variables: published.variables,
    theme: published.theme,
    settings: published.settings,
    publishedAt: published.updatedAt.toISO(),
  }
}
