import type { Language } from '#shared/workspace_roles'
import enViewer from '~/locales/en/viewer.json'
import { setupI18n, type Catalogue } from '~/lib/i18n_core'

/*
 * The visitor surface's catalogues: the chat's own strings (viewer.json) and, in other
 * languages, the server's messages. The dashboard's strings stay out of the chat's bundle
 * (docs/architecture.md, "The visitor surface").
 */
const bundles = import.meta.glob<{ default: Catalogue }>([
  '../locales/*/viewer.json',
  '../locales/*/server.json',
  '!../locales/en/*.json',
])

async function loadBundles(lang: Language) {
  const [translation, server] = await Promise.all(
    ['viewer', 'server'].map((name) => bundles[`../locales/${lang}/${name}.json`]?.())
  )
  return { translation: translation?.default ?? {}, server: server?.default }
}

/** Resolves once the visitor's language is loaded (English ships with the entry). */
export function initViewerI18n() {
  return setupI18n({ translation: enViewer }, loadBundles)
}
