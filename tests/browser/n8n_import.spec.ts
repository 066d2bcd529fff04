import { test } from '@japa/runner'
import User from '#models/user'
import Workflow from '#models/workflow'
import { signInWithLink } from '#tests/browser/helpers'
import { nodeOfType, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import { nightlyExport } from '#tests/n8n_exports'

test.group('Import from n8n in the browser', () => {
  test('paste an n8n workflow, read the report, import it and open it in the editor', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('n8n')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)

    await page.goto('/workflows')
    await page.getByTestId('import-n8n').first().click()
    const dialog = page.getByTestId('import-n8n-dialog')
    await dialog.waitFor()

    // Something that is not an n8n workflow: the reason shows, nothing is saved.
    await dialog.getByTestId('import-n8n-json').fill('{"blocks": []}')
    await dialog.getByTestId('import-n8n-check').click()
    await dialog.getByText('This is not an n8n workflow: it has no list of nodes').waitFor()
    assert.isFalse(await dialog.getByTestId('import-n8n-save').isVisible())

    await dialog.getByTestId('import-n8n-json').fill(JSON.stringify(nightlyExport(), null, 2))
    await dialog.getByTestId('import-n8n-check').click()
    const report = dialog.getByTestId('import-n8n-report')
    await report.waitFor()
    assert.include(
      await report.innerText(),
      '3 nodes: 2 taken over, 0 partly, 1 kept as placeholders'
    )
    const airtable = report.getByTestId('import-n8n-node').filter({ hasText: 'Read table' })
    assert.include(await airtable.innerText(), 'Placeholder')
    assert.include(await airtable.innerText(), 'Needs credentials (airtableTokenApi): not imported')
    assert.include(
      await dialog.getByTestId('import-n8n-workflow-lines').innerText(),
      'The pinned test data of 1 node(s)'
    )
    assert.lengthOf(
      await Workflow.query().where('workspaceId', workspace.id),
      0,
      'nothing saved yet'
    )

    await dialog.getByTestId('import-n8n-save').click()
    await page.waitForURL(/\/workflows\/[a-z0-9]+$/)
    const id = page.url().split('/').pop()!
    const saved = await Workflow.findOrFail(id)
    assert.equal(saved.name, 'Nightly digest')
    assert.equal(saved.workspaceId, workspace.id)

    // The editor shows the imported nodes where n8n had them, the placeholder disabled.
    await nodeOfType(page, 'schedule-trigger').waitFor()
    assert.equal(await nodeOfType(page, 'imported-node').count(), 1)
    assert.equal(await nodeOfType(page, 'Code').count(), 1)
    assert.include(await nodeOfType(page, 'imported-node').innerText(), 'Read table')

    // The node's n8n notes are in its settings, where the builder can change them.
    await nodeOfType(page, 'Code').click()
    const notes = page.getByTestId('node-notes')
    assert.equal(await notes.inputValue(), 'One digest line per team')
    await notes.click()
    await page.keyboard.press('End')
    await page.keyboard.type(', every night')
    await page.getByTestId('node-title-input').click()
    await waitFor(async () => {
      const stored = await Workflow.findOrFail(id)
      return stored.blocks.some((block) => block.notes === 'One digest line per team, every night')
    }, 'the notes to be saved')
  })
})
