import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { mkdir, writeFile } from 'node:fs/promises'
import Bot from '#models/bot'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { setUserPlan, uniqueEmail } from '#tests/helpers'
import { group, textBubble, typebotExport } from '#tests/typebot_exports'

/** The "Import from Typebot" page: two exported files chosen, imported, the report read. */
test.group('Import from Typebot in the browser', () => {
  test('upload two exported bots, see what carried over, open the linked set', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('tbimport')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    await page.reload()

    const suffix = Date.now().toString(36)
    const supportId = `support-${suffix}`
    const mainId = `main-${suffix}`
    const main = typebotExport({
      id: mainId,
      name: 'Main menu',
      startEdgeId: 'e_start',
      groups: [
        group('g1', 'Welcome', 0, [
          textBubble('b_hi', 'Welcome'),
          { id: 'b_link', type: 'Typebot link', options: { typebotId: supportId } },
        ]),
      ],
      edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
    })
    const support = typebotExport({
      id: supportId,
      name: 'Support desk',
      startEdgeId: 'e_start',
      groups: [
        group('g1', 'Handover', 0, [
          textBubble('b_sub', 'Support here'),
          { id: 'b_posthog', type: 'posthog', options: {} },
        ]),
      ],
      edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
    })
    const dir = app.makePath('tmp/test-uploads')
    await mkdir(dir, { recursive: true })
    const files = [`${dir}/main-${suffix}.json`, `${dir}/support-${suffix}.json`]
    await writeFile(files[0], JSON.stringify(main))
    await writeFile(files[1], JSON.stringify(support))

    await page.getByTestId('import-from-typebot').click()
    await page.waitForURL(/\/bots\/import-typebot$/)
    await page.getByTestId('typebot-import-files').setInputFiles(files)
    await page.getByTestId('typebot-import-chosen').getByText('2 files').waitFor()
    await page.getByTestId('typebot-import-submit').click()

    const report = page.getByTestId('typebot-import-report')
    await report.getByText('2 of 2 imported').waitFor()
    const mainReport = page.getByTestId('typebot-import-bot').filter({ hasText: 'Main menu' })
    await mainReport.getByText('Everything carried over.').waitFor()
    await mainReport.getByText(`Imported with its id ${mainId}.`).waitFor()
    const supportReport = page.getByTestId('typebot-import-bot').filter({ hasText: 'Support desk' })
    await supportReport
      .getByTestId('typebot-import-not-carried')
      .getByText('Block “posthog”: no such block here; remove it before publishing (in Handover)')
      .waitFor()

    const stored = await Bot.findOrFail(mainId)
    assert.equal(stored.groups[0].blocks[1].options!.typebotId, supportId)
    assert.isNotNull(await Bot.find(supportId))

    await mainReport.getByRole('link', { name: 'Open' }).click()
    await page.waitForURL(new RegExp(`/bots/${mainId}/edit$`))
    await page.getByTestId('editor-canvas').waitFor()
  })
})
