import { test } from '@japa/runner'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { manifestProblems } from '#plugins/registry'
import { pluginRegistry } from '#services/plugin_registry'
import { matchesPluginSearch } from '../../../resources/features/editor_shell/plugin_search.js'

const PLUGINS = fileURLToPath(new URL('../../../plugins/', import.meta.url))

/** Every block has a name, a fullName and tags besides its id. */
test.group('Plugins | fullName and tags', () => {
  test('every plugin under plugins/ declares a full name and lower-case tags', async ({
    assert,
  }) => {
    const registry = await pluginRegistry()
    const folders = readdirSync(PLUGINS, { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && !/^[._]/.test(entry.name)
    )
    const ofFolders = registry.all().filter((plugin) => registry.folderOf(plugin.id))
    assert.isAtLeast(ofFolders.length, folders.length)
    for (const plugin of ofFolders) {
      assert.isString(plugin.fullName, plugin.id)
      assert.isAbove(plugin.fullName.trim().length, 0, plugin.id)
      assert.isAbove(plugin.tags.length, 0, `${plugin.id} has tags`)
      for (const tag of plugin.tags) assert.equal(tag, tag.toLowerCase(), `${plugin.id}: ${tag}`)
    }
  })

  test('a manifest without them is refused with what is missing', ({ assert }) => {
    const base = {
      id: 'thing',
      name: 'Thing',
      category: 'logic',
      scope: 'user',
      version: 1,
      serves: ['bot'],
    }
    assert.deepEqual(manifestProblems(base, 'thing'), [
      'plugins/thing: fullName is missing',
      'plugins/thing: tags must be a list of words',
    ])
    assert.deepEqual(manifestProblems({ ...base, fullName: 'A thing', tags: ['x', ''] }, 'thing'), [
      'plugins/thing: tags must be a list of words',
    ])
    assert.deepEqual(manifestProblems({ ...base, fullName: 'A thing', tags: [] }, 'thing'), [])
  })

  test('the palette search matches the name, the full name, the id and the tags', async ({
    assert,
  }) => {
    const registry = await pluginRegistry()
    const found = (query: string) =>
      registry
        .all()
        .filter((plugin) => matchesPluginSearch(plugin, query))
        .map((plugin) => plugin.id)
    assert.include(found('llm'), 'openai')
    assert.include(found('SQL'), 'mysql')
    assert.include(found('claude'), 'anthropic')
    assert.include(found('postgresql database'), 'postgres')
    assert.notInclude(found('claude'), 'openai')
    assert.lengthOf(found(''), registry.all().length)
  })
})
