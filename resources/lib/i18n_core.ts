import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LANGUAGES, type Language } from '#shared/workspace_roles'

/**
 * The i18next set-up shared by the dashboard (resources/lib/i18n.ts) and the visitor surface
 * (resources/lib/viewer_i18n.ts). Each entry brings its own catalogues: the dashboard all of
 * the app's strings, the chat only its own, so a visitor's phone downloads no builder text
 * (docs/architecture.md, "The visitor surface"). Nothing here imports a catalogue.
 *
 * `translation`: the React strings. `server`: the messages the server sends in English
 * (flashed toasts, AppError titles and descriptions, JSON error bodies), keyed by the exact
 * English text; see translateServerMessage.
 */
export type Catalogue = Record<string, unknown>

export interface LanguageBundles {
  translation: Catalogue
  server?: Catalogue
}

/** Loads one language's catalogues (never English: it ships with the entry). */
export type LanguageLoader = (lang: Exclude<Language, 'en'>) => Promise<LanguageBundles>

let loader: LanguageLoader | undefined

export function mergeCatalogues(modules: { default: Catalogue }[]): Catalogue {
  return Object.assign({}, ...modules.map((module) => module.default))
}

async function loadLanguage(lang: Language) {
  if (lang === 'en' || !loader || i18n.hasResourceBundle(lang, 'translation')) return
  const { translation, server } = await loader(lang)
  i18n.addResourceBundle(lang, 'translation', translation, true, true)
  if (server) i18n.addResourceBundle(lang, 'server', server, true, true)
}

const STORAGE_KEY = 'language'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/** The user's saved language, else the last one chosen in this browser, else the browser's, else English. */
function detectLanguage(preferred?: string | null): Language {
  if (isLanguage(preferred)) return preferred
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (isLanguage(stored)) return stored
  } catch {}
  if (typeof navigator !== 'undefined') {
    for (const candidate of navigator.languages ?? [navigator.language]) {
      if (isLanguage(candidate)) return candidate
      const base = candidate?.split('-')[0]
      if (isLanguage(base)) return base
    }
  }
  return 'en'
}

function applyDocumentLanguage(lang: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lang
}

/**
 * Starts i18next with the entry's English catalogues and its loader for the other
 * languages. Resolves once the language's strings are loaded, so the first paint is in
 * that language.
 */
export async function setupI18n(
  english: LanguageBundles,
  load: LanguageLoader,
  lang?: string | null
) {
  loader = load
  const language = detectLanguage(lang)
  if (!i18n.isInitialized) {
    i18n.use(initReactI18next).init({
      resources: { en: { translation: english.translation, server: english.server ?? {} } },
      ns: ['translation', 'server'],
      defaultNS: 'translation',
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      returnNull: false,
      // Strings a lazy chunk adds later (panel_strings.ts) redraw what already shows.
      react: { useSuspense: false, bindI18nStore: 'added' },
      partialBundledLanguages: true,
    })
  }
  await loadLanguage(language)
  if (i18n.language !== language) await i18n.changeLanguage(language)
  applyDocumentLanguage(language)
  return i18n
}

export async function changeLanguage(lang: string) {
  if (!isLanguage(lang)) return
  try {
    localStorage.setItem(STORAGE_KEY, lang)
  } catch {}
  await loadLanguage(lang)
  applyDocumentLanguage(lang)
  if (i18n.language !== lang) await i18n.changeLanguage(lang)
}

export default i18n

/*
 * Server messages are looked up by their English text, which holds dots, colons and
 * apostrophes: no key or namespace separator for these lookups. English needs no
 * catalogue: its entries are the keys themselves.
 */
const SERVER_LOOKUP = { ns: 'server', keySeparator: false, nsSeparator: false } as const

/**
 * The current language's translation of a message the server sent in English, else the
 * text itself: user data (a workspace name, an e-mail address) and messages the server
 * already localised (VineJS validation) pass through unchanged.
 */
export function translateServerMessage(text: string): string
export function translateServerMessage(text?: string | null): string | undefined
export function translateServerMessage(text?: string | null): string | undefined {
  if (!text) return text ?? undefined
  // Checked first so that unknown text is never run through interpolation or nesting.
  if (!i18n.isInitialized || !i18n.exists(text, SERVER_LOOKUP)) return text
  return i18n.t(text, { ...SERVER_LOOKUP, defaultValue: text })
}
