import { useEffect, useState } from 'react'
import i18n from 'i18next'
import { allPluginFiles, pluginSlugOf } from '~/lib/plugin_registry'

/**
 * Texts a plugin's manifest holds that the editor shows beside the generated form (the
 * node type's name, an agent's slot labels, the hint under a node's URL), in the builder's
 * language. English is the manifest itself (locales/en.json is generated from it); any
 * other language is plugins/<slug>/locales/<lang>.json, loaded when the editor opens in that
 * language, one i18next namespace per plugin. A key a file lacks falls back to English.
 * The files are listed at build time (vite/flowcraft_plugins.ts), for folders and packages.
 */

export function pluginNamespace(pluginId: string) {
  return `plugin-${pluginSlugOf(pluginId) ?? pluginId}`
}

/** A plugin's text by its key in locales/<lang>.json ('attachments.model.label', 'url.hint'). */
export function pluginText(pluginId: string, key: string, english: string): string {
  return i18n.t(key, { ns: pluginNamespace(pluginId), defaultValue: english })
}

/** Loads the plugins' files of a language (each once); resolves when they are registered. */
export async function loadPluginLocales(language: string, pluginIds: readonly string[]) {
  if (language === 'en') return
  const slugs = new Set(pluginIds.map((id) => pluginSlugOf(id) ?? id))
  await Promise.all(
    [...allPluginFiles()].map(async ([slug, files]) => {
      const load = files.locales[language]
      if (!load || !slugs.has(slug)) return
      const namespace = `plugin-${slug}`
      if (i18n.hasResourceBundle(language, namespace)) return
      const module = await load()
      i18n.addResourceBundle(language, namespace, module.default, true, true)
    })
  )
}

/**
 * The language whose plugin texts are loaded: it changes (and the caller renders again)
 * once the files of a newly chosen language are in.
 */
export function usePluginLocales(pluginIds: readonly string[]): string {
  const [loaded, setLoaded] = useState('en')
  // Bot block ids hold spaces ('text input'): a newline never appears in an id.
  const key = pluginIds.join('\n')
  useEffect(() => {
    let cancelled = false
    const load = (language: string) => {
      void loadPluginLocales(language, key.split('\n')).then(() => {
        if (!cancelled) setLoaded(language)
      })
    }
    load(i18n.language ?? 'en')
    i18n.on('languageChanged', load)
    return () => {
      cancelled = true
      i18n.off('languageChanged', load)
    }
  }, [key])
  return loaded
}
