import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LANGUAGES, type Language } from '#shared/workspace_roles'
import enServer from '~/locales/en/server.json'

/**
 * `translation`: the React strings. `server`: the messages the server sends in English
 * (flashed toasts, AppError titles and descriptions, JSON error bodies), keyed by the exact
 * English text; see translateServerMessage.
 */
type Catalogue = Record<string, unknown>

/*
 * The `translation` namespace is translation.json plus one file per feature area
 * (viewer.json, theme.json, ...) with distinct top-level keys, so that areas grow their
 * strings without editing one shared file.
 */
function mergeCatalogues(modules: { default: Catalogue }[]): Catalogue {
  return Object.assign({}, ...modules.map((module) => module.default))
}

const englishFiles = import.meta.glob<{ default: Catalogue }>(
  ['../locales/en/*.json', '!../locales/en/server.json'],
  { eager: true }
)

export const resources = {
  en: { translation: mergeCatalogues(Object.values(englishFiles)), server: enServer },
}

/*
 * English ships in the main bundle (it is the fallback); every other language is a chunk
 * of its own, loaded before the first render in that language, so nobody downloads the
 * eight languages they do not read.
 */
const bundles = import.meta.glob<{ default: Catalogue }>([
  '../locales/*/*.json',
  '!../locales/en/*.json',
])

export async function loadLanguage(lang: Language) {
  if (lang === 'en' || i18n.hasResourceBundle(lang, 'translation')) return
  const prefix = `../locales/${lang}/`
  const paths = Object.keys(bundles).filter((path) => path.startsWith(prefix))
  const loaded = await Promise.all(
    paths.map(async (path) => ({ path, module: await bundles[path]() }))
  )
  const server = loaded.find(({ path }) => path.endsWith('/server.json'))
  const translation = mergeCatalogues(
    loaded.filter((entry) => entry !== server).map(({ module }) => module)
  )
  i18n.addResourceBundle(lang, 'translation', translation, true, true)
  if (server) i18n.addResourceBundle(lang, 'server', server.module.default, true, true)
}

/** Each language named in its own language (the language select shows these). */
export const LANGUAGE_LABELS: Record<Language, string> = {
  'en': 'English',
  'fr': 'Français',
  'de': 'Deutsch',
  'pt': 'Português',
  'pt-BR': 'Português (Brasil)',
  'es': 'Español',
  'ro': 'Română',
  'it': 'Italiano',
  'el': 'Ελληνικά',
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

/** Resolves once the language's strings are loaded, so the first paint is in that language. */
export async function initI18n(lang?: string | null) {
  const language = detectLanguage(lang)
  if (!i18n.isInitialized) {
    i18n.use(initReactI18next).init({
      resources,
      ns: ['translation', 'server'],
      defaultNS: 'translation',
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
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
 * apostrophes: no key or namespace separator for these lookups.
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
