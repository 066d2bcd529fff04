import { domainHost, isReservedHost } from '#services/custom_domains'
import db from '@adonisjs/lucid/services/db'
import { migrateBot } from '#shared/bot/migrate'
import type { BotV6 } from '#shared/bot/types'
import type { EngineBot } from '#engine/bot/ports'
import { jsonText } from '#models/json_text'

/**
 * Published bots in memory, by bot id, so that a chat turn reads no bot from the
 * database (docs/architecture.md). Entries are dropped at once when this process publishes
 * or unpublishes. After a few seconds an entry is stale: the turn that finds it still uses
 * it but starts one read in the background, so other processes' changes are seen a read
 * later and no turn waits for a reload (under load, a reload every few seconds held up
 * every turn that arrived during it).
 */

export interface PublishedBotEntry {
  bot: EngineBot
  publicId: string | null
  customDomain: string | null
  isClosed: boolean
  isArchived: boolean
  /** Who created the bot: the workspace plan judges their chats. */
  createdBy: string | null
  loadedAt: number
}

const TTL_MS = 10_000
const byId = new Map<string, PublishedBotEntry>()
const idByPublicId = new Map<string, string>()

function parse(value: unknown) {
  return jsonText.consume(value)
}

/**
 * Loads in progress by key: when an entry expires (or a process starts) under load, the
 * turns that arrive meanwhile share one query instead of each reading and parsing the bot.
 */
const loading = new Map<string, Promise<PublishedBotEntry | null>>()
/** Bumped when this process changes a bot: loads started before it are not cached. */
let generation = 0

function load(where: { column: string; value: string }): Promise<PublishedBotEntry | null> {
  const key = `${where.column}:${where.value}`
  let pending = loading.get(key)
  if (!pending) {
    pending = loadFromDatabase(where).finally(() => loading.delete(key))
    loading.set(key, pending)
  }
  return pending
}

async function loadFromDatabase(where: {
  column: string
  value: string
}): Promise<PublishedBotEntry | null> {
  const startedIn = generation
  const row = await db
    .from('bots')
    .join('published_bots', 'published_bots.bot_id', 'bots.id')
    .where(`bots.${where.column}`, where.value)
    // A custom domain is served only once its host is proven (docs/custom_domains.md).
    .if(where.column === 'custom_domain', (query) =>
      query.whereNotNull('bots.custom_domain_verified_at')
    )
    .select(
      'bots.id',
      'bots.name',
      'bots.workspace_id',
      'bots.created_by',
      'bots.public_id',
      'bots.custom_domain',
      'bots.is_closed',
      'bots.is_archived',
      'published_bots.version',
      'published_bots.groups',
      'published_bots.events',
      'published_bots.edges',
      'published_bots.variables',
      'published_bots.theme',
      'published_bots.settings',
      'published_bots.updated_at'
    )
    .first()
  if (!row) {
    // Unpublished or removed elsewhere: a stale entry must not be served again.
    if (startedIn === generation) dropCached(where)
    return null
  }
  const raw = {
    version: row.version,
    id: row.id,
    name: row.name,
    groups: parse(row.groups),
    events: parse(row.events),
    edges: parse(row.edges),
    variables: parse(row.variables),
    theme: parse(row.theme),
    settings: parse(row.settings),
  }
  const content: BotV6 = row.version === '6' ? (raw as BotV6) : migrateBot(raw)
  const updatedAt = row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at)
  const entry: PublishedBotEntry = {
    bot: {
      id: row.id,
      workspaceId: row.workspace_id,
      ownerId: row.created_by,
      publishedAt: updatedAt.toISOString(),
      content,
    },
    publicId: row.public_id,
    customDomain: row.custom_domain,
    isClosed: Boolean(row.is_closed),
    isArchived: Boolean(row.is_archived),
    createdBy: row.created_by,
    loadedAt: Date.now(),
  }
  if (startedIn === generation) {
    byId.set(entry.bot.id, entry)
    if (entry.publicId) idByPublicId.set(entry.publicId, entry.bot.id)
  }
  return entry
}

function dropCached(where: { column: string; value: string }) {
  const id =
    where.column === 'id'
      ? where.value
      : where.column === 'public_id'
        ? idByPublicId.get(where.value)
        : undefined
  if (where.column === 'public_id') idByPublicId.delete(where.value)
  if (!id) return
  const entry = byId.get(id)
  byId.delete(id)
  if (entry?.publicId) idByPublicId.delete(entry.publicId)
}

/** A cached entry, refreshed in the background once stale. */
function cached(entry: PublishedBotEntry | undefined, where: { column: string; value: string }) {
  if (entry && Date.now() - entry.loadedAt >= TTL_MS) {
    // A failed refresh keeps the entry; the next turn tries again.
    load(where).catch(() => {})
  }
  return entry
}

export async function publishedBotById(botId: string): Promise<PublishedBotEntry | null> {
  return (
    cached(byId.get(botId), { column: 'id', value: botId }) ??
    (await load({ column: 'id', value: botId }))
  )
}

/** A public id, or a bot id (links shared before a public id was set keep working). */
export async function publishedBotByPublicId(publicId: string): Promise<PublishedBotEntry | null> {
  const id = idByPublicId.get(publicId)
  const entry = id ? byId.get(id) : undefined
  if (entry && entry.publicId === publicId) {
    return cached(entry, { column: 'public_id', value: publicId })!
  }
  return (
    (await load({ column: 'public_id', value: publicId })) ??
    (await load({ column: 'id', value: publicId }))
  )
}

/** The bot served at `host[/path]`: verified domains only, never on the app's own hosts. */
export async function publishedBotByDomain(domain: string): Promise<PublishedBotEntry | null> {
  const slash = domain.indexOf('/')
  const host = domainHost(domain).replace(/:\d+$/, '')
  if (!host || isReservedHost(host)) return null
  return load({ column: 'custom_domain', value: slash === -1 ? host : host + domain.slice(slash) })
}

/** Called when this process publishes, unpublishes, closes or deletes a bot. */
export function forgetPublishedBot(botId: string) {
  // A load that started before the change must neither be joined nor cached.
  generation++
  loading.clear()
  const entry = byId.get(botId)
  byId.delete(botId)
  if (entry?.publicId) idByPublicId.delete(entry.publicId)
}
