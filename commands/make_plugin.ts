import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * node ace make:plugin <id> --category <category> [--scope user|workspace]
 * Scaffolds plugins/<slug>/ (manifest, README, English locale) and a passing test in
 * tests/unit/plugins/<slug>.spec.ts, so a new block starts from a green suite.
 */
export default class MakePlugin extends BaseCommand {
  static commandName = 'make:plugin'
  static description = 'Scaffold a new block or node plugin in plugins/<slug>'
  static options: CommandOptions = { startApp: false }

  @args.string({ description: 'The block type stored in bot JSON, e.g. "qr-code" or "Send SMS"' })
  declare id: string

  @flags.string({
    description:
      'bubble | input | logic | integration (bots), trigger | action | model | tool | data | flow (workflows)',
  })
  declare category: string

  @flags.string({ description: 'Who owns the credentials: user or workspace', default: 'user' })
  declare scope: string

  async run() {
    const { BOT_CATEGORIES, PLUGIN_CATEGORIES, PLUGIN_SCOPES, slugOf } =
      await import('#plugins/define_plugin')
    const { localeOf } = await import('#plugins/derive')

    const id = (this.id ?? '').trim()
    const slug = slugOf(id)
    if (!slug)
      return this.fail(
        'Give the plugin an id, e.g. node ace make:plugin qr-code --category integration'
      )
    if (!(PLUGIN_CATEGORIES as readonly string[]).includes(this.category)) {
      return this.fail(`--category must be one of ${PLUGIN_CATEGORIES.join(', ')}`)
    }
    if (!(PLUGIN_SCOPES as readonly string[]).includes(this.scope)) {
      return this.fail(`--scope must be one of ${PLUGIN_SCOPES.join(', ')}`)
    }
    const folder = this.app.makePath('plugins', slug)
    const testFile = this.app.makePath('tests/unit/plugins', `${slug}.spec.ts`)
    if (existsSync(folder)) return this.fail(`plugins/${slug} already exists`)
    if (existsSync(testFile)) return this.fail(`tests/unit/plugins/${slug}.spec.ts already exists`)

    const surface = (BOT_CATEGORIES as readonly string[]).includes(this.category)
      ? 'bot'
      : 'workflow'
    const name = id.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase())
    await mkdir(join(folder, 'locales'), { recursive: true })
    await writeFile(
      join(folder, 'index.ts'),
      manifestSource({ id, name, category: this.category, scope: this.scope, surface })
    )
    // The locale is derived from the manifest just written, so the two always agree.
    const manifest = (await import(pathToFileURL(join(folder, 'index.ts')).href)).default
    await writeFile(
      join(folder, 'locales/en.json'),
      JSON.stringify(localeOf(manifest), null, 2) + '\n'
    )
    await writeFile(join(folder, 'README.md'), readmeSource(id, name, slug))
    await mkdir(this.app.makePath('tests/unit/plugins'), { recursive: true })
    await writeFile(testFile, testSource(id, slug))

    this.logger.success(`created plugins/${slug}/index.ts, README.md, locales/en.json`)
    this.logger.success(`created tests/unit/plugins/${slug}.spec.ts`)
    this.logger.info('next: declare the options in index.ts, write runner.ts, see docs/plugins.md')
  }

  private fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}

function manifestSource(p: {
  id: string
  name: string
  category: string
  scope: string
  surface: string
}) {
  return `import { definePlugin } from '../../app/plugins/define_plugin.js'
import { field } from '../../app/plugins/fields.js'

/** ${p.name}: say here what the block does and why a builder would use it. */
export default definePlugin({
  id: ${JSON.stringify(p.id)},
  name: ${JSON.stringify(p.name)},
  description: 'Describe the block in a few words',
  category: '${p.category}',
  scope: '${p.scope}',
  version: 1,
  serves: ['${p.surface}'],
  options: {
    text: field.string({ label: 'Text', allowVariables: true, required: true }),
    saveResultInVariableId: field.variable({ label: 'Save the result in', writes: true }),
  },
})
`
}

function readmeSource(id: string, name: string, slug: string) {
  return `# ${name} (\`${id}\`)

What the block does, for builders: when to use it and what it saves.

## For plugin authors

- \`index.ts\`: the manifest (browser-safe: no Node imports).
- \`runner.ts\`: the server-side run (export \`run\`, or one export per action).
- \`locales/en.json\`: labels, derived from the manifest with \`localeOf\` (app/plugins/derive.ts).
- Tests: \`tests/unit/plugins/${slug}.spec.ts\`.

See docs/plugins.md.
`
}

function testSource(id: string, slug: string) {
  return `import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import plugin from '../../../plugins/${slug}/index.js'
import { defaultsOf, formOf, localeOf, validatorFor } from '#plugins/derive'

test.group(${JSON.stringify(`Plugin ${id}`)}, () => {
  test('its defaults are valid drafts and its form is plain JSON', async ({ assert }) => {
    await assert.doesNotReject(() => validatorFor(plugin, { mode: 'save' }).validate(defaultsOf(plugin)))
    const form = formOf(plugin)
    assert.deepEqual(JSON.parse(JSON.stringify(form)), form)
  })

  test('its English locale matches the manifest', async ({ assert }) => {
    const path = fileURLToPath(new URL('../../../plugins/${slug}/locales/en.json', import.meta.url))
    assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), JSON.parse(JSON.stringify(localeOf(plugin))))
  })
})
`
}
