import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * node ace plugins:locales [folders...] [--check]
 * Writes each plugin's locales/en.json from its manifest (localeOf in app/plugins/derive.ts):
 * every folder of plugins/, or the folders given (a plugin package's src/). With --check,
 * writes nothing and exits with 1 when a file differs from its manifest.
 */
export default class PluginsLocales extends BaseCommand {
  static commandName = 'plugins:locales'
  static description = "Regenerate plugins' locales/en.json from their manifests"
  static options: CommandOptions = { startApp: false }

  @args.spread({
    description: 'Plugin folders (holding index.ts or index.js); default: every folder of plugins/',
    required: false,
  })
  declare folders?: string[]

  @flags.boolean({ description: 'Only say which files differ from their manifest (exit 1)' })
  declare check?: boolean

  async run() {
    const { localeOf } = await import('#plugins/derive')
    // A package's manifest imports @flowcraft/sdk: the app's own SDK answers that name.
    const { registerSdkSpecifier } = await import('#plugins/sdk_specifier')
    registerSdkSpecifier()

    const folders = this.folders?.length
      ? this.folders.map((folder) => resolve(folder))
      : (await readdir(this.app.makePath('plugins'), { withFileTypes: true }))
          .filter((entry) => entry.isDirectory())
          .map((entry) => this.app.makePath('plugins', entry.name))
          .sort()

    const differing: string[] = []
    for (const folder of folders) {
      const index = ['index.ts', 'index.js'].map((f) => join(folder, f)).find(existsSync)
      const inApp = relative(this.app.makePath(), folder)
      const where = inApp && !inApp.startsWith('..') ? inApp : folder
      if (!index) {
        this.logger.error(`${where}: no index.ts or index.js`)
        this.exitCode = 1
        continue
      }
      const manifest = (await import(pathToFileURL(index).href)).default
      const expected = JSON.stringify(localeOf(manifest), null, 2) + '\n'
      const file = join(folder, 'locales', 'en.json')
      const current = existsSync(file) ? await readFile(file, 'utf8') : null
      if (current === expected) continue
      differing.push(where)
      if (this.check) {
        this.logger.error(`${where}/locales/en.json differs from its manifest`)
        continue
      }
      await mkdir(join(folder, 'locales'), { recursive: true })
      await writeFile(file, expected)
      this.logger.success(`wrote ${where}/locales/en.json`)
    }
    if (this.check && differing.length > 0) this.exitCode = 1
    this.logger.info(
      `${folders.length} plugins, ${differing.length} ${this.check ? 'differing' : 'written'}`
    )
  }
}
