import { test } from '@japa/runner'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type { BotV6 } from '#shared/bot/types'

/**
 * Block issues in both editors (app/plugins/block_issues.ts): a field its plugin's
 * validator refuses shows the message under the field and a mark on the block or node;
 * fixing the field (the autosave answers with the remaining issues) takes both away.
 */

test.group('Block issues in the editors', () => {
  test('bot editor: the missing account is shown in the form and on the block until chosen', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('botissues')
    const page = await visit('/signin')
    page.setDefaultTimeout(60_000)
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'Team account',
      data: { apiKey: 'sk-issues-0123456789' },
    })
    const content = {
      version: '6',
      name: 'Issues',
      groups: [
        {
          id: 'g1',
          title: 'Group #1',
          graphCoordinates: { x: 300, y: 200 },
          blocks: [
            {
              id: 'ai1',
              type: 'openai',
              options: { action: 'Create chat completion', model: 'gpt-4o-mini' },
            },
          ],
        },
      ],
      events: [
        { id: 'ev1', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
      ],
      edges: [{ id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } }],
      variables: [],
      theme: {},
      settings: {},
    } as unknown as BotV6
    const bot = await new CreateBot().handle(user, workspace, { name: 'Issues', content })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const block = page.locator('[data-testid="block-item"][data-block-id="ai1"]')
    await block.getByTestId('block-issue').waitFor()
    await block.click()
    const form = page.getByTestId('block-form')
    const message = form.getByRole('alert').filter({ hasText: 'Account is required' })
    await message.waitFor()

    await form.getByTestId('field-credentialsId').click()
    await page.getByRole('option', { name: 'Team account' }).click()
    await message.waitFor({ state: 'detached' })
    await block.getByTestId('block-issue').waitFor({ state: 'detached' })
    assert.isNull(await block.getAttribute('data-issues'))
  }).timeout(180_000)

  test('workflow editor: an empty URL is shown in the form and on the node until typed', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('wfissues')
    const page = await visit('/signin')
    page.setDefaultTimeout(60_000)
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Issues' })
    await new UpdateWorkflow().handle(user, workspace, workflow, {
      blocks: [
        { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
        {
          id: 'call',
          type: 'workflow-http-request',
          graphCoordinates: { x: 320, y: 0 },
          options: { method: 'POST', url: '' },
        },
      ],
      edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'call' } }],
    })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    const node = page.locator('[data-testid="workflow-node"][data-node-id="call"]')
    await node.getByTestId('node-issue').waitFor()
    await node.getByTestId('node-title').click()
    const form = page.getByTestId('node-form')
    const message = form.getByRole('alert').filter({ hasText: 'URL is required' })
    await message.waitFor()

    // A former workflow-http-request node opens as the HTTP request plugin (webhook.url).
    await form.getByTestId('field-webhook.url').click()
    await page.keyboard.type('https://shop.example/hook')
    await message.waitFor({ state: 'detached' })
    await node.getByTestId('node-issue').waitFor({ state: 'detached' })
    assert.isNull(await node.getAttribute('data-issues'))
  }).timeout(180_000)
})
