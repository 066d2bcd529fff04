import { test } from '@japa/runner'
import ace from '@adonisjs/core/services/ace'
import app from '@adonisjs/core/services/app'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import PluginsList from '../../commands/plugins_list.js'
import { forgetPluginRegistry, pluginRegistry } from '#services/plugin_registry'
import { createUser, oneGroupExport, publishThroughApi, textBubble } from '#tests/helpers'

/*
 * A plugin folder whose manifest names an icon.svg that is not there: the server leaves that
 * one plugin out and says so (log, plugins:list, /admin/plugins); every other plugin, the
 * editors and the chat keep working.
 */

const SLUG = 'zz-missing-icon'
const FOLDER = app.makePath('plugins', SLUG)

async function addBrokenPlugin() {
  await mkdir(FOLDER, { recursive: true })
  await writeFile(
    `${FOLDER}/index.ts`,
    [
      `import { definePlugin } from '#sdk/plugin'`,
      `export default definePlugin({`,
      `  id: '${SLUG}', name: 'Missing icon', fullName: 'Missing icon', tags: [], category: 'logic', scope: 'user',`,
      `  icon: 'icon.svg', version: 1, serves: ['bot'], options: {},`,
      `})`,
      ``,
    ].join('\n')
  )
  forgetPluginRegistry()
}

function greetingBot() {
  return oneGroupExport('brokenpluginbot1', 'Still works', [textBubble('b1', 'Still here')])
}

test.group('A broken plugin', (group) => {
  group.each.setup(async () => {
    await addBrokenPlugin()
    return async () => {
      await rm(FOLDER, { recursive: true, force: true })
      forgetPluginRegistry()
    }
  })

  test('is left out with its problem while the other plugins, the editor and the chat work', async ({
    client,
    assert,
  }) => {
    const registry = await pluginRegistry()
    assert.isFalse(registry.has(SLUG))
    assert.isTrue(registry.has('text'))
    assert.isAbove(registry.all().length, 50)
    assert.deepEqual(registry.problems(), [
      {
        where: `plugins/${SLUG}`,
        message: `plugins/${SLUG}: icon file icon.svg is missing`,
        missingFile: 'icon.svg',
      },
    ])

    const { user: admin } = await new FindOrCreateUser().handle('admin@example.com')
    const page = await client.get('/admin/plugins').loginAs(admin).withInertia()
    page.assertStatus(200)
    assert.deepEqual(page.inertiaProps.leftOut, [
      { where: `plugins/${SLUG}`, message: `plugins/${SLUG}: icon file icon.svg is missing` },
    ])
    assert.include(
      page.inertiaProps.plugins.map((plugin: any) => plugin.id),
      'text input'
    )

    // A bot made of other plugins: published, edited and chatted with as usual.
    const publicId = await publishThroughApi(client, greetingBot())
    const chat = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    chat.assertStatus(200)
    assert.equal(chat.body().messages[0].content.richText[0].children[0].text, 'Still here')

    const user = await createUser()
    const created = await client
      .post('/bots')
      .loginAs(user)
      .withCsrfToken()
      .form({ name: 'Editor check' })
      .redirects(0)
    assert.include([302, 303], created.status(), created.text())
    const editor = await client.get(created.header('location')!).loginAs(user).withInertia()
    editor.assertStatus(200)
  })

  test('plugins:list lists it with its problem and exits with 1', async ({ assert }) => {
    const command = await ace.create(PluginsList, [])
    command.ui.switchMode('raw')
    await command.exec()
    const lines = command.ui.logger.getLogs().map((log) => log.message)
    const row = lines.find((line) => line.includes(`plugins/${SLUG}`))
    assert.exists(row, lines.join('\n'))
    assert.include(row!, 'icon file icon.svg is missing')
    assert.isTrue(lines.some((line) => line.includes('1 plugin(s) left out')))
    assert.equal(command.exitCode, 1)
    assert.isTrue(lines.some((line) => /\btext input\b/.test(line)))
  })

  test('once the file is back, the next load has the plugin: nothing of the failure is kept', async ({
    assert,
  }) => {
    assert.isFalse((await pluginRegistry()).has(SLUG))
    await writeFile(`${FOLDER}/icon.svg`, '<svg xmlns="http://www.w3.org/2000/svg"/>')
    forgetPluginRegistry()
    const registry = await pluginRegistry()
    assert.isTrue(registry.has(SLUG))
    assert.lengthOf(registry.problems(), 0)
  })
})
