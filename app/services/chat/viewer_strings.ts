import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import { LANGUAGES, type Language } from '#shared/workspace_roles'

/*
| The visitor surface's strings on the server: the pages it answers without its bundle
| (the bot not found page) read the chat's own catalogue, resources/locales/<lang>/viewer.json,
| so a visitor sees the same words as in the chat, in the same languages.
*/

type Catalogue = { [key: string]: string | Catalogue }

const catalogues = new Map<Language, Promise<Catalogue>>()

function catalogue(lang: Language): Promise<Catalogue> {
  let loaded = catalogues.get(lang)
  if (!loaded) {
    loaded = readFile(app.makePath('resources/locales', lang, 'viewer.json'), 'utf8')
      .then((text) => JSON.parse(text) as Catalogue)
      .catch(() => ({}))
    // Development edits the catalogues: read them again each time there.
    if (!app.inDev) catalogues.set(lang, loaded)
  }
  return loaded
}

function lookup(source: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = source
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** The language to answer a visitor in, from Accept-Language (English by default). */
export function visitorLanguage(pick: (supported: string[]) => string | null): Language {
  return (pick([...LANGUAGES]) as Language | null) ?? 'en'
}

/** `keys` read from viewer.json in `lang`, English for any it lacks. */
export async function viewerStrings<K extends string>(
  lang: Language,
  keys: readonly K[]
): Promise<Record<K, string>> {
  const [local, english] = await Promise.all([catalogue(lang), catalogue('en')])
  return Object.fromEntries(
    keys.map((key) => [key, lookup(local, key) ?? lookup(english, key) ?? key])
  ) as Record<K, string>
}
