import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { mkdir, writeFile } from 'node:fs/promises'
import Bot from '#models/bot'
import Folder from '#models/folder'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { setUserPlan, uniqueEmail } from '#tests/helpers'

test.group('Dashboard in the browser', () => {
  test('create a bot from scratch, import a file, make a folder and drag a bot into it', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('dash')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    await page.reload()

    await page.getByTestId('create-bot').first().click()
    await page.getByTestId('create-from-scratch').click()
    await page.getByTestId('new-bot-name').fill('Lead capture')
    await page.getByTestId('create-bot-submit').click()
    // A new bot opens in the editor.
    await page.waitForURL(/\/bots\/[a-z0-9]+\/edit$/)
    await page.getByTestId('editor-canvas').waitFor()
    await page.goto('/bots')
    await page.getByTestId('bot-card').filter({ hasText: 'Lead capture' }).waitFor()

    const dir = app.makePath('tmp/test-uploads')
    await mkdir(dir, { recursive: true })
    const file = `${dir}/browser-import-${Date.now()}.json`
    await writeFile(
      file,
      JSON.stringify({
        version: '6',
        name: 'Imported survey',
        groups: [],
        events: [{ id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
        edges: [],
        variables: [],
        theme: {},
        settings: {},
      })
    )
    await page.getByTestId('create-bot').first().click()
    await page.getByTestId('create-from-file').click()
    await page.getByTestId('import-bot-file').setInputFiles(file)
    await page.getByTestId('import-bot-submit').click()
    await page.getByTestId('bot-card').filter({ hasText: 'Imported survey' }).waitFor()

    await page.getByTestId('new-folder').click()
    await page.getByTestId('folder-card').first().waitFor()
    const folder = await Folder.query()
      .whereIn('workspace_id', (q) =>
        q.from('workspace_members').select('workspace_id').where('user_id', user.id)
      )
      .firstOrFail()

    await page
      .getByTestId('bot-card')
      .filter({ hasText: 'Lead capture' })
      .dragTo(page.getByTestId('folder-card').first())
    for (let i = 0; i < 50; i++) {
      const bot = await Bot.findByOrFail('name', 'Lead capture')
      if (bot.folderId === folder.id) break
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.equal((await Bot.findByOrFail('name', 'Lead capture')).folderId, folder.id)
    await page.screenshot({ path: app.makePath('docs/screenshots/bots-dashboard.png') })
  })
})
