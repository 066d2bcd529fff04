import type { BotSettings } from '#shared/bot/types'

/**
 * `?lang=fr`: the language the chat starts in, for a bot in several languages (sent as the
 * startChat request's `language`; the server falls back to Accept-Language, then the
 * bot's default, when the bot does not speak it). The inline script of
 * resources/views/viewer.edge reads the same parameter.
 */
export const LANGUAGE_PARAM = 'lang'

/** The `lang` parameter of the page's address, when there is one. */
export function queryLanguage(): string | undefined {
  const value = new URL(window.location.href).searchParams.get(LANGUAGE_PARAM)?.trim()
  return value ? value.slice(0, 35) : undefined
}

/**
 * The visitor's result kept between visits ("remember user"), in the storage the builder
 * chose. Storage may be refused (third-party iframes, private modes): then nothing is kept.
 */

function storageKey(publicId: string) {
  return `flowcraft:result:${publicId}`
}

function storageOf(settings: BotSettings): Storage | undefined {
  const remember = settings.general?.rememberUser
  if (!remember?.isEnabled) return undefined
  try {
    return remember.storage === 'local' ? window.localStorage : window.sessionStorage
  } catch {
    return undefined
  }
}

export function readRememberedResult(publicId: string, settings: BotSettings) {
  try {
    return storageOf(settings)?.getItem(storageKey(publicId)) ?? undefined
  } catch {
    return undefined
  }
}

export function rememberResult(publicId: string, settings: BotSettings, resultId?: string) {
  if (!resultId) return
  try {
    storageOf(settings)?.setItem(storageKey(publicId), resultId)
  } catch {}
}

/** Query parameters the page itself uses; never passed to the bot as variables. */
const RESERVED_PARAMS = new Set(['embedded', LANGUAGE_PARAM])

/**
 * Reads the query string as prefilled variables (when the builder allows it) and, when
 * asked, removes it from the address bar so shared links do not carry visitors' data.
 */
export function takeQueryVariables(
  settings: BotSettings,
  replaceUrl: (url: string) => void
): Record<string, string> | undefined {
  const url = new URL(window.location.href)
  const variables: Record<string, string> = {}
  for (const [key, value] of url.searchParams) {
    if (!RESERVED_PARAMS.has(key)) variables[key] = value
  }
  // The language stays in the address: it is no visitor data, and a reload keeps it.
  if (settings.general?.isHideQueryParamsEnabled && Object.keys(variables).length > 0) {
    for (const key of Object.keys(variables)) url.searchParams.delete(key)
    replaceUrl(`${url.pathname}${url.search}${url.hash}`)
  }
  if (!settings.general?.isInputPrefillEnabled) return undefined
  return Object.keys(variables).length > 0 ? variables : undefined
}
