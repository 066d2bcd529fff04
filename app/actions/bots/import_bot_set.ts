import Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { CreateBot } from '#actions/bots/create_bot'
import { pluginRegistry } from '#services/plugin_registry'
import type { PluginRegistry } from '#plugins/registry'
import { isZip, readZip, ZipError } from '#services/zip_reader'
import { BOT_PARSE_ERROR_MESSAGE, BotParseError, importBot } from '#shared/bot/parse'
import type { Block, BotV6 } from '#shared/bot/types'
import { isPlainObject } from '#shared/bot/graph'
import type { ImportedBotReport, ImportSetReport, NotCarriedItem } from '#shared/bot/import_report'

/**
 * Imports a set of exported bots at once (several files, or zip archives of them), as
 * docs/migrating-from-typebot.md describes: each bot keeps its id and publicId when free;
 * a bot whose id was taken gets a new one and the links of the set that pointed to it
 * follow; the report lists per file what did not carry over.
 */

export interface UploadedFile {
  name: string
  bytes: Buffer
}

/** Bounds of one import: a workspace's worth of bots, not an archive bomb. */
export const IMPORT_SET_LIMITS = { maxBots: 200, maxTotalBytes: 50 * 1024 * 1024 }

/**
 * Settings sections and keys the app reads (app/shared/bot/types.ts BotSettings); any other
 * key of an export is kept in the stored JSON but has no effect, so it is reported.
 */
const KNOWN_SETTINGS: Record<string, readonly string[]> = {
  general: [
    'isBrandingEnabled',
    'isTypingEmulationEnabled',
    'isInputPrefillEnabled',
    'isHideQueryParamsEnabled',
    'isNewResultOnRefreshEnabled',
    'rememberUser',
  ],
  typingEmulation: [
    'enabled',
    'speed',
    'maxDelay',
    'delayBetweenBubbles',
    'isDisabledOnFirstMessage',
  ],
  metadata: [
    'title',
    'description',
    'imageUrl',
    'favIconUrl',
    'customHeadCode',
    'googleTagManagerId',
  ],
  whatsApp: ['isEnabled', 'startCondition', 'sessionExpiryTimeout'],
  telegram: ['isEnabled', 'startCondition', 'sessionExpiryTimeout', 'botToken', 'webhookUrl'],
  publicShare: ['isEnabled'],
  security: ['allowedOrigins'],
}
const KNOWN_THEME_SECTIONS = ['general', 'chat', 'customCss']

interface Parsed {
  file: string
  content?: BotV6
  error?: string
}

function entriesOf(upload: UploadedFile): Parsed[] | { file: string; bytes: Buffer }[] {
  if (!isZip(upload.bytes)) return [{ file: upload.name, bytes: upload.bytes }]
  try {
    return readZip(upload.bytes, {
      maxEntries: IMPORT_SET_LIMITS.maxBots,
      maxTotalBytes: IMPORT_SET_LIMITS.maxTotalBytes,
    })
      .filter(
        (entry) =>
          entry.name.toLowerCase().endsWith('.json') &&
          !entry.name.startsWith('__MACOSX/') &&
          !entry.name.split('/').pop()!.startsWith('.')
      )
      .map((entry) => ({ file: `${upload.name}/${entry.name}`, bytes: entry.data }))
  } catch (error) {
    if (error instanceof ZipError) return [{ file: upload.name, error: error.message }]
    throw error
  }
}

function parse(file: string, bytes: Buffer): Parsed {
  try {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
    return { file, content: importBot(JSON.parse(text)) }
  } catch (error) {
    if (error instanceof BotParseError || error instanceof SyntaxError) {
      return { file, error: BOT_PARSE_ERROR_MESSAGE }
    }
    throw error
  }
}

/** The block's stored options (bubbles of the format keep them in `content`). */
function storedOptions(registry: PluginRegistry, block: Block): Record<string, unknown> | null {
  const plugin = registry.get(block.type)
  const stored = plugin?.storedIn === 'content' ? block.content : block.options
  return isPlainObject(stored) ? (stored as Record<string, unknown>) : null
}

/** Names of the option fields of a block type that hold a bot id (`refersTo: 'bot'`). */
function botIdFields(registry: PluginRegistry, type: string): string[] {
  const plugin = registry.get(type)
  if (!plugin?.options) return []
  return Object.entries(plugin.options as Record<string, { kind?: string; refersTo?: string }>)
    .filter(([, field]) => field.kind === 'string' && field.refersTo === 'bot')
    .map(([name]) => name)
}

/** What of an exported bot has no effect here, for the report. */
function notCarried(
  registry: PluginRegistry,
  content: BotV6,
  linkable: Set<string>
): NotCarriedItem[] {
  const items: NotCarriedItem[] = []
  const raw = content as BotV6 & Record<string, unknown>
  for (const group of content.groups) {
    for (const block of group.blocks) {
      const plugin = registry.get(block.type)
      if (!plugin || !plugin.serves.includes('bot')) {
        items.push({ kind: 'block', what: block.type, where: group.title })
        continue
      }
      const options = storedOptions(registry, block)
      if (typeof options?.credentialsId === 'string' && options.credentialsId) {
        items.push({ kind: 'credentials', what: block.type, where: group.title })
      }
      for (const name of botIdFields(registry, block.type)) {
        const target = options?.[name]
        if (typeof target === 'string' && target && target !== 'current' && !linkable.has(target)) {
          items.push({ kind: 'link', what: target, where: group.title })
        }
      }
    }
  }
  for (const event of content.events) {
    if (event.type !== 'start') items.push({ kind: 'event', what: String(event.type) })
  }
  for (const [section, value] of Object.entries(content.settings ?? {})) {
    const known = KNOWN_SETTINGS[section]
    if (!known) {
      items.push({ kind: 'setting', what: section })
      continue
    }
    if (!isPlainObject(value)) continue
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) items.push({ kind: 'setting', what: `${section}.${key}` })
    }
  }
  for (const section of Object.keys(content.theme ?? {})) {
    if (!KNOWN_THEME_SECTIONS.includes(section)) items.push({ kind: 'theme', what: section })
  }
  if (typeof raw.customDomain === 'string' && raw.customDomain) {
    items.push({ kind: 'domain', what: raw.customDomain })
  }
  if (typeof raw.whatsAppCredentialsId === 'string' && raw.whatsAppCredentialsId) {
    items.push({ kind: 'credentials', what: 'WhatsApp' })
  }
  return items
}

/** The set's links to bots whose id changed now name the new ids. */
function relinked(registry: PluginRegistry, groups: BotV6['groups'], newIds: Map<string, string>) {
  let changed = false
  const next = groups.map((group) => ({
    ...group,
    blocks: group.blocks.map((block) => {
      const fields = botIdFields(registry, block.type)
      const options = fields.length ? storedOptions(registry, block) : null
      if (!options) return block
      const patch: Record<string, unknown> = {}
      for (const name of fields) {
        const target = options[name]
        if (typeof target === 'string' && newIds.has(target)) patch[name] = newIds.get(target)
      }
      if (Object.keys(patch).length === 0) return block
      changed = true
      const key = registry.get(block.type)?.storedIn === 'content' ? 'content' : 'options'
      return { ...block, [key]: { ...options, ...patch } }
    }),
  }))
  return changed ? next : null
}

export class ImportBotSet {
  async handle(
    user: User,
    workspace: Workspace,
    uploads: UploadedFile[],
    options: { folderId?: string | null } = {}
  ): Promise<ImportSetReport> {
    const registry = await pluginRegistry()
    const parsed: Parsed[] = []
    for (const upload of uploads) {
      for (const entry of entriesOf(upload)) {
        if (parsed.length >= IMPORT_SET_LIMITS.maxBots) {
          throw new AppError('Too many bots in one import', {
            status: 422,
            description: `At most ${IMPORT_SET_LIMITS.maxBots} bots per import.`,
            field: 'files',
          })
        }
        parsed.push('bytes' in entry ? parse(entry.file, entry.bytes) : (entry as Parsed))
      }
    }

    // Ids the set's links may name: the set's own, and the workspace's bots.
    const originalIds = new Set(
      parsed.map((p) => (p.content as { id?: unknown } | undefined)?.id).filter(isString)
    )
    const existing = await Bot.query().where('workspace_id', workspace.id).select('id')
    const linkable = new Set([...originalIds, ...existing.map((bot) => bot.id)])

    const reports: ImportedBotReport[] = []
    const created: { bot: Bot; report: ImportedBotReport }[] = []
    const newIds = new Map<string, string>()
    for (const entry of parsed) {
      if (!entry.content) {
        reports.push({ file: entry.file, status: 'failed', error: entry.error, notCarried: [] })
        continue
      }
      const raw = entry.content as BotV6 & { id?: unknown; publicId?: unknown }
      const report: ImportedBotReport = {
        file: entry.file,
        status: 'imported',
        name: entry.content.name,
        originalId: isString(raw.id) ? raw.id : undefined,
        notCarried: notCarried(registry, entry.content, linkable),
      }
      try {
        const bot = await new CreateBot().handle(user, workspace, {
          content: entry.content,
          folderId: options.folderId ?? null,
          keepIds: true,
        })
        report.botId = bot.id
        report.publicId = bot.publicId
        if (isString(raw.publicId) && raw.publicId && bot.publicId !== raw.publicId) {
          report.notCarried.push({ kind: 'publicId', what: raw.publicId })
        }
        if (report.originalId && report.originalId !== bot.id) newIds.set(report.originalId, bot.id)
        created.push({ bot, report })
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        report.status = 'failed'
        report.error = error.description ? `${error.message}: ${error.description}` : error.message
      }
      reports.push(report)
    }

    if (newIds.size > 0) {
      for (const { bot } of created) {
        const groups = relinked(registry, bot.groups, newIds)
        if (!groups) continue
        bot.groups = groups
        await bot.save()
      }
    }
    return { bots: reports }
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}
