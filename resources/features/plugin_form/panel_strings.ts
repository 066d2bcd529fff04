import i18n, { type Catalogue } from '~/lib/i18n_core'
import english from '~/locales/en/later/editor_panels.json'

/*
 * Strings only the editors' panels show (the `{{` completion, a node's expected input),
 * kept out of the catalogue every page loads (resources/lib/i18n.ts): English arrives with
 * the panels' code, which imports this module; another language's file is fetched when the
 * panels load, and react-i18next draws again once it is in (`bindI18nStore: 'added'`).
 * docs/benchmarks/editor.md, "Expressions".
 */
const others = import.meta.glob<{ default: Catalogue }>([
  '../../locales/*/later/*.json',
  '!../../locales/en/later/*.json',
])

const loaded = new Set<string>(['en'])

function load(lang: string) {
  if (!lang || loaded.has(lang)) return
  loaded.add(lang)
  const prefix = `../../locales/${lang}/later/`
  for (const [path, read] of Object.entries(others)) {
    if (!path.startsWith(prefix)) continue
    void read()
      .then((module) => i18n.addResourceBundle(lang, 'translation', module.default, true, false))
      // Not kept as loaded: the next change of language tries again.
      .catch(() => loaded.delete(lang))
  }
}

function start() {
  i18n.addResourceBundle('en', 'translation', english, true, false)
  load(i18n.language)
  i18n.on('languageChanged', load)
}

// i18next adds its store methods (addResourceBundle) in init(): a page that loads this
// module before the app's i18n set-up finished (the settings dialog does) waits for it.
if (i18n.isInitialized) start()
else i18n.on('initialized', start)
