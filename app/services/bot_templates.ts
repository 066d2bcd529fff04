import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { importBot, validateBot } from '#shared/bot/parse'
import type { BotV6 } from '#shared/bot/types'
import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_ID_PATTERN,
  type TemplateCategory,
} from '#shared/bot/templates'

/**
 * The bot templates shipped with the app: one file per template in database/templates,
 * `{ id, name, description, category, emoji, bot }` where `bot` is a complete v6 bot. A
 * new template is a new file (its id is its file name); nothing else to register.
 */

export interface BotTemplate {
  id: string
  name: string
  description: string
  category: TemplateCategory
  emoji: string
  bot: BotV6
}

export const TEMPLATES_DIR = 'database/templates'

/** A broken template file stops the listing with its name, rather than a half gallery. */
function parseTemplate(fileName: string, raw: unknown): BotTemplate {
  const fail = (why: string): never => {
    throw new Error(`Bot template ${fileName}: ${why}`)
  }
  if (!raw || typeof raw !== 'object') return fail('not a JSON object')
  const doc = raw as Record<string, unknown>
  const id = fileName.replace(/\.json$/, '')
  if (doc.id !== id || !TEMPLATE_ID_PATTERN.test(id)) fail('id must equal the file name')
  for (const key of ['name', 'description', 'emoji'] as const) {
    if (typeof doc[key] !== 'string' || !(doc[key] as string).trim()) fail(`${key} is missing`)
  }
  if (!TEMPLATE_CATEGORIES.includes(doc.category as TemplateCategory)) {
    fail(`category must be one of ${TEMPLATE_CATEGORIES.join(', ')}`)
  }
  const checked = validateBot(importBot(doc.bot))
  if (!checked.ok) {
    const first = checked.errors[0]
    fail(`the bot is invalid (${first.path}: ${first.message})`)
  }
  return {
    id,
    name: doc.name as string,
    description: doc.description as string,
    category: doc.category as TemplateCategory,
    emoji: doc.emoji as string,
    bot: (checked as { bot: BotV6 }).bot,
  }
}

/** Every template of a folder, checked; exported for tests of the checks. */
export async function readTemplatesFrom(dir: string): Promise<BotTemplate[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
  const templates = await Promise.all(
    files.map(async (name) =>
      parseTemplate(name, JSON.parse(await readFile(join(dir, name), 'utf8')))
    )
  )
  // Gallery order: by category as the filter lists them, then by name.
  return templates.sort(
    (a, b) =>
      TEMPLATE_CATEGORIES.indexOf(a.category) - TEMPLATE_CATEGORIES.indexOf(b.category) ||
      a.name.localeCompare(b.name)
  )
}

// The files do not change while the app runs: read them once per process.
let cached: Promise<BotTemplate[]> | undefined

export function botTemplates(): Promise<BotTemplate[]> {
  cached ??= readTemplatesFrom(app.makePath(TEMPLATES_DIR)).catch((error) => {
    cached = undefined
    throw error
  })
  return cached
}

export async function findTemplate(id: string): Promise<BotTemplate | undefined> {
  if (!TEMPLATE_ID_PATTERN.test(id)) return undefined
  return (await botTemplates()).find((template) => template.id === id)
}

/** The id a template's bot runs under in a preview session (no bot row has it). */
export function templateEngineId(template: Pick<BotTemplate, 'id'>) {
  return `template-${template.id}`
}
