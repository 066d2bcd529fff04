import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { readFile } from 'node:fs/promises'
import { basename, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  manifestSource,
  readmeSource,
  runnerSource,
  credentialsSource,
  formSource,
  testSource,
  folderTestCommand,
  packageJsonSource,
  packageTsconfigSource,
  testCountOf,
  type Scaffold,
} from '#plugins/scaffold_templates'

/**
 * node ace make:plugin <id> [--category <category>] [--serves bot,workflow] [--credentials]
 *   [--form] [--package <folder> [--sdk <version or tarball>]]
 * Scaffolds plugins/<slug>/: a manifest, a runner that calls an HTTP API, optional
 * credentials with their check, a README, the English locale and a test against a local
 * stand-in server, all lint-clean and passing. With --form, a custom form.tsx built from the
 * editor's parts (the generated form and a Test button). With --package, the same plugin as an npm
 * package in a folder outside the app, built and tested with its own dependencies against
 * @flowcraft/sdk. docs/plugins.md walks through both.
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

  @flags.boolean({
    description: 'Add form.tsx: the generated form plus a Test button, from the SDK forms module',
  })
  declare form?: boolean

  @flags.string({ description: 'Who owns the credentials: user or workspace', default: 'user' })
  declare scope: string

  @flags.string({
    description: 'Make an npm package in this folder (outside the app) instead of plugins/<slug>',
  })
  declare package?: string

  @flags.string({
    description:
      'The @flowcraft/sdk the package builds against: a version range or a packed tarball (npm pack packages/sdk); default ^<the app SDK version>',
  })
  declare sdk?: string

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
      form: this.form === true,
    }
    if (this.package !== undefined) return this.writePackage(scaffold, localeOf)

    const folder = this.app.makePath('plugins', slug)
    if (existsSync(folder)) return this.fail(`plugins/${slug} already exists`)
    await mkdir(join(folder, 'locales'), { recursive: true })
    await writeFile(join(folder, 'index.ts'), manifestSource(scaffold))
    await writeFile(join(folder, 'runner.ts'), runnerSource(scaffold))
    if (scaffold.credentials)
      await writeFile(join(folder, 'credentials.ts'), credentialsSource(scaffold))
    if (scaffold.form) await writeFile(join(folder, 'form.tsx'), formSource(scaffold))
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
    if (scaffold.form) files.push('form.tsx')
    files.push('runner.spec.ts', 'README.md', 'locales/en.json')
    this.logger.success(
      `created plugins/${slug}/: ${files.join(', ')} (${testCountOf(scaffold)} tests)`
    )
    this.logger.info(`next: ${folderTestCommand(slug)}, then see docs/plugins.md`)
  }

  /** The plugin as an npm package in its own folder, outside the app. */
  private async writePackage(base: Scaffold, localeOf: (manifest: any) => Record<string, unknown>) {
    const root = resolve(this.package ?? '')
    const inApp = relative(this.app.makePath(), root)
    if (!this.package || !inApp.startsWith('..')) {
      return this.fail('--package takes a folder outside the app, e.g. ../flowcraft-plugin-weather')
    }
    if (existsSync(root)) return this.fail(`${root} already exists`)
    const sdkPackage = JSON.parse(
      await readFile(this.app.makePath('packages/sdk/package.json'), 'utf8')
    )
    // A tarball is named by an absolute path: the package may be built from anywhere.
    const sdk = this.sdk
      ? existsSync(this.sdk)
        ? `file:${resolve(this.sdk)}`
        : this.sdk
      : `^${sdkPackage.version}`
    const scaffold: Scaffold = { ...base, package: { name: basename(root), sdk } }
    const src = join(root, 'src')
    await mkdir(join(src, 'locales'), { recursive: true })
    await writeFile(join(root, 'package.json'), packageJsonSource(scaffold))
    await writeFile(join(root, 'tsconfig.json'), packageTsconfigSource())
    await writeFile(join(root, '.gitignore'), 'node_modules\ndist\n*.tgz\n')
    await writeFile(join(root, 'README.md'), readmeSource(scaffold))
    await writeFile(join(src, 'index.ts'), manifestSource(scaffold))
    await writeFile(join(src, 'runner.ts'), runnerSource(scaffold))
    if (scaffold.credentials)
      await writeFile(join(src, 'credentials.ts'), credentialsSource(scaffold))
    if (scaffold.form) await writeFile(join(src, 'form.tsx'), formSource(scaffold))
    await writeFile(join(src, 'runner.test.ts'), testSource(scaffold))
    // The manifest imports @flowcraft/sdk, not installed yet beside it: the app's own SDK
    // answers that name (as it does for installed packages), so the locale is derived now.
    const { registerSdkSpecifier } = await import('#plugins/sdk_specifier')
    registerSdkSpecifier()
    const locale = localeOf((await import(pathToFileURL(join(src, 'index.ts')).href)).default)
    await writeFile(join(src, 'locales/en.json'), JSON.stringify(locale, null, 2) + '\n')
    this.logger.success(
      `created ${root}: package.json, tsconfig.json, README.md, src/ (${testCountOf(scaffold)} tests)`
    )
    this.logger.info(`next: cd ${root} && npm install && npm test, then see docs/plugins.md`)
  }

  private fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
