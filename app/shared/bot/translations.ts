import type { Block, BotSettings, BotV6, Item } from './types.js'
import { plainTextToRichText, richTextToPlainText } from '#shared/chat/rich_text'

/**
 * One bot in several languages (docs/editor.md "Languages"). The bot's settings say which
 * languages it speaks (`settings.languages`) and hold the texts of the other languages
 * (`settings.translations`): the settings travel everywhere the bot goes (save, publish,
 * history, co-editing, export and import) without a new column or format field.
 *
 * A translatable text is named by a key: `<blockId>/<path>`, where the path is the field's
 * place in the block (`options.labels.placeholder`, `content.richText`,
 * `items.<itemId>.content`). Which fields are translatable comes from the plugin
 * manifests (`translatable: true` on a field); applying a translation needs only the key.
 * Rich text fields (a text bubble's `richText`) are translated as plain text, one paragraph
 * per line, so a translation is always a string.
 */

export interface BotLanguages {
  /** The language of the texts written in the blocks themselves. */
  default: string
  /** The languages the bot also speaks, each with its table in `settings.translations`. */
  others: string[]
}

/** Per language, per text key, the translated text. */
export type BotTranslations = Record<string, Record<string, string>>

/** The variable that carries the chat's language: prefilled, set by a block, or a choice. */
export const LANGUAGE_VARIABLE = 'language'

/** BCP 47 tags as builders type them: 'en', 'pt-BR', 'zh-Hant'. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/

export function normalizeTag(tag: string): string {
  const [language, ...rest] = tag.trim().replace(/_/g, '-').split('-')
  return [
    language.toLowerCase(),
    ...rest.map((part) =>
      part.length === 2 ? part.toUpperCase() : part[0].toUpperCase() + part.slice(1).toLowerCase()
    ),
  ].join('-')
}

/** The bot's languages, or undefined when it speaks one language only. */
export function languagesOf(settings: BotSettings | undefined | null): BotLanguages | undefined {
  const raw = (settings as { languages?: Partial<BotLanguages> } | undefined)?.languages
  if (!raw || typeof raw !== 'object') return undefined
  const fallback =
    typeof raw.default === 'string' && LANGUAGE_TAG.test(raw.default)
      ? normalizeTag(raw.default)
      : 'en'
  const others = Array.isArray(raw.others)
    ? [
        ...new Set(
          raw.others
            .filter((tag): tag is string => typeof tag === 'string' && LANGUAGE_TAG.test(tag))
            .map(normalizeTag)
        ),
      ].filter((tag) => tag !== fallback)
    : []
  return { default: fallback, others }
}

export function translationsOf(settings: BotSettings | undefined | null): BotTranslations {
  const raw = (settings as { translations?: unknown } | undefined)?.translations
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as BotTranslations) : {}
}

/** The translations of one language (empty for the default language or an unknown one). */
export function tableOf(
  settings: BotSettings | undefined | null,
  language: string | undefined
): Record<string, string> | undefined {
  const languages = languagesOf(settings)
  if (!languages || !language || language === languages.default) return undefined
  if (!languages.others.includes(language)) return undefined
  const table = translationsOf(settings)[language]
  return table && typeof table === 'object' ? table : undefined
}

/**
 * The bot's language that best fits a wish: the same tag, else the same base language
 * ('fr-CA' → 'fr', 'pt' → 'pt-BR'), else a language name in English or in itself
 * ('Français', 'German': what a Buttons block saves when its items are language names).
 */
export function matchLanguage(wish: unknown, available: readonly string[]): string | undefined {
  if (typeof wish !== 'string') return undefined
  const text = wish.trim().replace(/_/g, '-')
  if (!text) return undefined
  if (LANGUAGE_TAG.test(text)) {
    const tag = normalizeTag(text)
    const exact = available.find((candidate) => candidate === tag)
    if (exact) return exact
    const base = tag.split('-')[0]
    const sameBase = available.find((candidate) => candidate.split('-')[0] === base)
    if (sameBase) return sameBase
  }
  const lower = text.toLowerCase()
  return available.find((candidate) =>
    [nameOf(candidate, 'en'), nameOf(candidate, candidate)].some(
      (name) => name?.toLowerCase() === lower
    )
  )
}

function nameOf(tag: string, inLanguage: string): string | undefined {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(tag)
  } catch {
    return undefined
  }
}

/** An Accept-Language header's tags, most wanted first (q=0 left out). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q ? Number.parseFloat(q.slice(2)) : 1
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index }
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag)
}

export interface LanguageWishes {
  /** The `language` of a startChat request, or the page's `lang` URL parameter. */
  requested?: string | null
  /** The value of a prefilled `language` variable. */
  variable?: unknown
  /** The visitor's Accept-Language header. */
  acceptLanguage?: string | null
}

/**
 * The chat's language: what the request asks, else the prefilled variable, else the
 * browser's best match, else the default. Undefined for a bot with one language.
 */
export function pickLanguage(
  settings: BotSettings | undefined | null,
  wishes: LanguageWishes
): string | undefined {
  const languages = languagesOf(settings)
  if (!languages) return undefined
  const available = [languages.default, ...languages.others]
  const explicit =
    matchLanguage(wishes.requested, available) ?? matchLanguage(wishes.variable, available)
  if (explicit) return explicit
  for (const tag of parseAcceptLanguage(wishes.acceptLanguage)) {
    const match = matchLanguage(tag, available)
    if (match) return match
  }
  return languages.default
}

// ---------------------------------------------------------------------------
// Translatable texts
// ---------------------------------------------------------------------------

/** The part of a plugin's form description this module reads (app/plugins/derive.ts). */
export interface TranslatableFieldSource {
  name: string
  kind: string
  label?: string
  defaultValue?: unknown
  translatable?: boolean
  fields?: TranslatableFieldSource[]
}

export interface TranslatableSource {
  storedIn: 'options' | 'content'
  fields: TranslatableFieldSource[]
  items?: { fields: TranslatableFieldSource[] }
}

export interface TranslatableText {
  key: string
  blockId: string
  groupId: string
  /** The field's path inside the block, e.g. ['options', 'labels', 'placeholder']. */
  path: string[]
  /** The field's label (English, from the manifest) for lists. */
  label: string
  /** The text in the default language (the field's default when the block leaves it empty). */
  source: string
  /** Rich text: the translation becomes paragraphs. */
  isRichText: boolean
}

export function textKey(blockId: string, path: readonly string[]) {
  return `${blockId}/${path.join('.')}`
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return richTextToPlainText(value as any)
  return ''
}

function walkFields(
  fields: readonly TranslatableFieldSource[],
  holder: Record<string, unknown> | undefined,
  path: string[],
  visit: (field: TranslatableFieldSource, value: unknown, path: string[]) => void
) {
  for (const field of fields) {
    const value = holder?.[field.name]
    if (field.kind === 'object' && field.fields) {
      walkFields(
        field.fields,
        value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined,
        [...path, field.name],
        visit
      )
    } else if (field.translatable) {
      visit(field, value, [...path, field.name])
    }
  }
}

/** The translatable texts of one block, in the order its form shows them. */
export function blockTexts(
  block: Block,
  groupId: string,
  source: TranslatableSource | undefined
): TranslatableText[] {
  if (!source) return []
  const texts: TranslatableText[] = []
  const push = (field: TranslatableFieldSource, value: unknown, path: string[]) => {
    const isRichText = field.kind === 'json'
    let text = textOf(value)
    // A text bubble imported with html or plain text only.
    if (!text && isRichText && block.content) {
      text =
        typeof block.content.plainText === 'string'
          ? block.content.plainText
          : typeof block.content.html === 'string'
            ? block.content.html.replace(/<[^>]*>/g, '')
            : ''
    }
    if (!text && typeof field.defaultValue === 'string') text = field.defaultValue
    if (!text.trim()) return
    texts.push({
      key: textKey(block.id, path),
      blockId: block.id,
      groupId,
      path,
      label: field.label ?? field.name,
      source: text,
      isRichText,
    })
  }
  const root = source.storedIn === 'content' ? block.content : block.options
  walkFields(source.fields, root as Record<string, unknown> | undefined, [source.storedIn], push)
  if (source.items) {
    for (const item of block.items ?? []) {
      walkFields(source.items.fields, item as Record<string, unknown>, ['items', item.id], push)
    }
  }
  return texts
}

/** Every translatable text of a bot, group by group. */
export function botTexts(
  bot: Pick<BotV6, 'groups'>,
  sourceOf: (type: string) => TranslatableSource | undefined
): TranslatableText[] {
  return bot.groups.flatMap((group) =>
    group.blocks.flatMap((block) => blockTexts(block, group.id, sourceOf(block.type)))
  )
}

/** The texts a language has no translation for (blank translations count as missing). */
export function missingTexts(
  texts: readonly TranslatableText[],
  table: Record<string, string> | undefined
): TranslatableText[] {
  return texts.filter((text) => !table?.[text.key]?.trim())
}

function setPath(target: Record<string, any>, path: readonly string[], value: unknown) {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    node[key] = next && typeof next === 'object' && !Array.isArray(next) ? { ...next } : {}
    node = node[key]
  }
  node[path[path.length - 1]] = value
}

/**
 * A block with its texts in a language: a copy where every translated text replaces the
 * default one; texts without a translation stay as written (the default is the fallback).
 * The block itself is never changed (published bots are shared between turns).
 */
export function translateBlock(block: Block, table: Record<string, string> | undefined): Block {
  if (!table) return block
  const prefix = `${block.id}/`
  let copy: Block | undefined
  for (const [key, value] of Object.entries(table)) {
    if (!key.startsWith(prefix) || typeof value !== 'string' || !value.trim()) continue
    const path = key.slice(prefix.length).split('.')
    copy ??= { ...block }
    if (path[0] === 'items' && path.length >= 3) {
      const itemId = path[1]
      copy.items = (copy.items ?? []).map((item: Item) => {
        if (item.id !== itemId) return item
        const next = { ...item }
        setPath(next, path.slice(2), value)
        return next
      })
    } else if (path[0] === 'options' || path[0] === 'content') {
      const holder = { ...(copy[path[0]] ?? {}) } as Record<string, unknown>
      if (path.at(-1) === 'richText') {
        // The translation replaces the whole bubble text, whichever form it was stored in.
        delete holder.html
        delete holder.plainText
        setPath(holder, path.slice(1), plainTextToRichText(value))
      } else {
        setPath(holder, path.slice(1), value)
      }
      copy[path[0]] = holder
    }
  }
  return copy ?? block
}
