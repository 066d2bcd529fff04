import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  manifestSource,
  readmeSource,
  runnerSource,
  credentialsSource,
  testSource,
  type Scaffold,
} from '#plugins/scaffold_templates'

/**
 * node ace make:plugin <id> [--category <category>] [--serves bot,workflow] [--credentials]
 * Scaffolds plugins/<slug>/: a manifest, a runner that calls an HTTP API, optional
 * credentials with their check, a README, the English locale and a test against a local
 * stand-in server, all lint-clean and passing. docs/plugins.md walks through it.
 */
export default class MakePlugin extends BaseCommand {
  static commandName = 'make:plugin'
  static description = 'Scaffold a new block or node plugin in plugins/<slug>'
  static options: CommandOptions = { startApp: false }

  @args.string({ description: 'The block type stored in bot JSON, e.g. "qr-code" or "Send SMS"' })
  declare id: string

  @flags.string({
    description:
      'bubble | input | logic | integration (bots), trigger | action | model | tool | data | flow (workflows); default integration, or action for workflows only',
  })
  declare category?: string

  @flags.string({
    description: 'Surfaces it serves: bot, workflow or bot,workflow',
    default: 'bot',
  })
  declare serves: string

  @flags.boolean({ description: 'Add an API-key credential with its check (credentials.ts)' })
  declare credentials?: boolean

  @flags.string({ description: 'Who owns the credentials: user or workspace', default: 'user' })
  declare scope: string

  async run() {
    const { BOT_CATEGORIES, WORKFLOW_CATEGORIES, PLUGIN_SCOPES, PLUGIN_SURFACES, slugOf } =
      await import('#plugins/define_plugin')
    const { localeOf } = await import('#plugins/derive')

    const id = (this.id ?? '').trim()
    const slug = slugOf(id)
    if (!slug) {
      return this.fail(
        'Give the plugin an id, e.g. node ace make:plugin weather --serves bot,workflow --credentials'
      )
    }
    const serves = [...new Set((this.serves ?? 'bot').split(',').map((s) => s.trim()))]
    if (
      serves.length === 0 ||
      serves.some((s) => !(PLUGIN_SURFACES as readonly string[]).includes(s))
    ) {
      return this.fail('--serves must be bot, workflow or bot,workflow')
    }
    const allowed: readonly string[] =
      serves.length === 2
        ? [...BOT_CATEGORIES, ...WORKFLOW_CATEGORIES]
        : serves[0] === 'bot'
          ? BOT_CATEGORIES
          : WORKFLOW_CATEGORIES
    const category = this.category ?? (serves.includes('bot') ? 'integration' : 'action')
    if (!allowed.includes(category)) {
      return this.fail(`--category must be one of ${allowed.join(', ')}`)
    }
    if (!(PLUGIN_SCOPES as readonly string[]).includes(this.scope)) {
      return this.fail(`--scope must be one of ${PLUGIN_SCOPES.join(', ')}`)
    }
    const folder = this.app.makePath('plugins', slug)
    if (existsSync(folder)) return this.fail(`plugins/${slug} already exists`)

    const name = id
      .replace(/[-_]+/g, ' ')
      .replace(/^./, (c) => c.toUpperCase())
      .trim()
    const scaffold: Scaffold = {
      id,
      name,
      slug,
      category,
      scope: this.scope,
      serves: serves as Scaffold['serves'],
      credentials: this.credentials === true,
    }
    await mkdir(join(folder, 'locales'), { recursive: true })
    await writeFile(join(folder, 'index.ts'), manifestSource(scaffold))
    await writeFile(join(folder, 'runner.ts'), runnerSource(scaffold))
    if (scaffold.credentials)
      await writeFile(join(folder, 'credentials.ts'), credentialsSource(scaffold))
    await writeFile(join(folder, 'runner.spec.ts'), testSource(scaffold))
    await writeFile(join(folder, 'README.md'), readmeSource(scaffold))
    // The locale is derived from the manifest just written, so the two always agree.
    const manifest = (await import(pathToFileURL(join(folder, 'index.ts')).href)).default
    await writeFile(
      join(folder, 'locales/en.json'),
      JSON.stringify(localeOf(manifest), null, 2) + '\n'
    )

    const files = ['index.ts', 'runner.ts']
    if (scaffold.credentials) files.push('credentials.ts')
    files.push('runner.spec.ts', 'README.md', 'locales/en.json')
    this.logger.success(`created plugins/${slug}/: ${files.join(', ')}`)
    this.logger.info(
      `next: node ace test unit --files plugins/${slug}/runner.spec.ts, then see docs/plugins.md`
    )
  }

  private fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
