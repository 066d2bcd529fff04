import { defaultSettings, defaultTheme, type BotV6 } from '#shared/bot/types'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'

/**
 * The Theme and Settings tabs edit one leaf of `bot.theme` or `bot.settings` per field:
 * each field selects its own value by path (so typing in one field re-renders that field
 * only) and writes it through the store's `edit`, coalesced per path for undo.
 */

export type Path = readonly string[]

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function getIn(value: unknown, path: Path): unknown {
  let current = value
  for (const key of path) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

/** A copy of `value` with `next` at `path` (objects created on the way); undefined removes it. */
export function setIn<T>(value: T, path: Path, next: unknown): T {
  if (path.length === 0) return next as T
  const [key, ...rest] = path
  const record: Json = isRecord(value) ? { ...value } : {}
  const child = setIn(record[key], rest, next)
  if (child === undefined) delete record[key]
  else record[key] = child
  return record as T
}

const THEME_DEFAULTS = defaultTheme()
const SETTINGS_DEFAULTS = defaultSettings()

type Root = 'theme' | 'settings'

function defaultsOf(root: Root) {
  return root === 'theme' ? THEME_DEFAULTS : SETTINGS_DEFAULTS
}

/** The stored value at `path`, else the default a new bot has there. */
export function useBotValue<T>(root: Root, path: Path): T | undefined {
  const stored = useBotEditor((state) => getIn(state.history.present[root], path))
  return (stored === undefined ? getIn(defaultsOf(root), path) : stored) as T | undefined
}

export function coalesceKeyOf(root: Root, path: Path) {
  return `${root}:${path.join('.')}`
}

/** Writes leaves of the theme or the settings; several writes of one call make one step. */
export function useBotWriter(root: Root) {
  const api = useBotEditorApi()
  return (writes: [Path, unknown][], coalesceKey = coalesceKeyOf(root, writes[0]?.[0] ?? [])) => {
    api.getState().edit(
      (bot: BotV6) => {
        let section = bot[root] as unknown
        for (const [path, next] of writes) {
          if (getIn(section, path) !== next) section = setIn(section, path, next)
        }
        return section === bot[root] ? bot : { ...bot, [root]: section }
      },
      { coalesceKey }
    )
  }
}

export function useReadOnly() {
  return useBotEditor((state) => state.readOnly)
}
