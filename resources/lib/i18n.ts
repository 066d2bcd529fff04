import type { Language } from '#shared/workspace_roles'
import enServer from '~/locales/en/server.json'
import i18n, { mergeCatalogues, setupI18n, type Catalogue } from '~/lib/i18n_core'

/*
 * The dashboard's catalogues (the visitor surface has its own: resources/lib/viewer_i18n.ts).
 * The `translation` namespace is translation.json plus one file per feature area
 * (viewer.json, theme.json, ...) with distinct top-level keys, so that areas grow their
 * strings without editing one shared file.
 */
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

async function loadBundles(lang: Language) {
  const prefix = `../locales/${lang}/`
  const paths = Object.keys(bundles).filter((path) => path.startsWith(prefix))
  const loaded = await Promise.all(
    paths.map(async (path) => ({ path, module: await bundles[path]() }))
  )
  const server = loaded.find(({ path }) => path.endsWith('/server.json'))
  return {
    translation: mergeCatalogues(
      loaded.filter((entry) => entry !== server).map(({ module }) => module)
    ),
    server: server?.module.default,
  }
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

/** Resolves once the language's strings are loaded, so the first paint is in that language. */
export function initI18n(lang?: string | null) {
  return setupI18n(resources.en, loadBundles, lang)
}

export { changeLanguage, isLanguage, translateServerMessage } from '~/lib/i18n_core'
export default i18n
