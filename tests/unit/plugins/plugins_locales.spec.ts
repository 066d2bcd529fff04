import { test } from '@japa/runner'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import PluginsLocales from '../../../commands/plugins_locales.js'

/**
 * `node ace plugins:locales` (docs/plugins.md): every plugin's locales/en.json agrees with its
 * manifest, and after a manifest change the command, given the folder, rewrites it.
 */
async function runLocales(args: string[]) {
  const command = await ace.create(PluginsLocales, args)
  command.ui.switchMode('raw')
  try {
    await command.exec()
    return {
      exitCode: command.exitCode,
      lines: command.ui.logger.getLogs().map((log) => log.message),
    }
  } finally {
    command.ui.switchMode('normal')
  }
}

test.group('plugins:locales', () => {
  test("with no folder, it checks every plugin of plugins/: each locale is its manifest's", async ({
    assert,
  }) => {
    const { exitCode, lines } = await runLocales(['--check'])
    assert.notEqual(exitCode, 1, lines.join('\n'))
    assert.match(lines.at(-1) ?? '', /\d+ plugins, 0 differing/)
  })

  test('after a manifest change it rewrites the locale of the folder given', async ({
    assert,
    cleanup,
  }) => {
    await mkdir(app.makePath('tmp'), { recursive: true })
    const root = await mkdtemp(app.makePath('tmp/locales-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    // A copy of a plugin that imports only the SDK, in the app's tmp/ (its #sdk imports resolve)
    // and outside plugins/, so no registry sees it.
    const folder = join(root, 'qr-code')
    await cp(app.makePath('plugins/qr-code'), folder, { recursive: true })
    const index = join(folder, 'index.ts')
    const manifest = await readFile(index, 'utf8')
    const renamed = manifest.replace(/name: 'QR code'/, "name: 'QR code, renamed'")
    assert.notEqual(renamed, manifest)
    await writeFile(index, renamed)

    assert.equal((await runLocales(['--check', folder])).exitCode, 1)
    const written = await runLocales([folder])
    assert.include(written.lines.at(-1) ?? '', '1 plugins, 1 written')
    const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
    assert.include(JSON.stringify(locale), 'QR code, renamed')
    assert.notEqual((await runLocales(['--check', folder])).exitCode, 1)
  })
})
