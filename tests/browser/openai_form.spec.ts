import { test } from '@japa/runner'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { signInWithLink } from '#tests/browser/helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type { BotV6 } from '#shared/bot/types'
import type { Page } from 'playwright'

/**
 * The OpenAI block's form in the bot editor: the account picker offers the workspace's
 * credentials, the Model field lists the models fetched live through the fetcher endpoint
 * with the chosen credentials, and any other text may still be typed.
 */

const KEY = 'sk-form-0123456789'

/**
 * A signed-in builder whose OpenAI credential holds a key the stand-in refuses, and a bot named
 * `name` whose one group holds `blocks` (given the credential's id), started from the start event.
 */
async function withRefusedKey(
  visit: (url: string) => Promise<Page>,
  cleanup: (fn: () => void | Promise<void>) => void,
  name: string,
  blocks: (credentialsId: string) => unknown[]
) {
  const standIn = await startOpenAiStandIn({ apiKey: 'the-right-key' })
  cleanup(() => standIn.close())
  const email = uniqueEmail('aiform')
  const page = await visit('/signin')
  // A shared machine under load compiles the editor slowly: wait longer than the default.
  page.setDefaultTimeout(60_000)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const credential = await new CreateCredential().handle(user, workspace, {
    type: 'openai',
    name: 'Wrong key',
    data: { apiKey: 'wrong', baseUrl: standIn.baseUrl },
  })
  const content = {
    version: '6',
    name,
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 300, y: 200 },
        blocks: blocks(credential.id),
      },
    ],
    events: [{ id: 'ev1', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings: {},
  } as unknown as BotV6
  const bot = await new CreateBot().handle(user, workspace, { name, content })
  return { page, standIn, bot }
}

test.group('OpenAI block form in the bot editor', () => {
  test('models fetched with the chosen credentials fill the Model combobox', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({
      apiKey: KEY,
      models: ['gpt-4o', 'gpt-4o-mini', 'whisper-1'],
    })
    cleanup(() => standIn.close())
    const email = uniqueEmail('aiform')
    const page = await visit('/signin')
    // A shared machine under load compiles the editor slowly: wait longer than the default.
    page.setDefaultTimeout(60_000)
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'Stand-in account',
      data: { apiKey: KEY, baseUrl: standIn.baseUrl },
    })
    const content = {
      version: '6',
      name: 'AI form',
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
    const bot = await new CreateBot().handle(user, workspace, { name: 'AI form', content })

    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="ai1"]').click()
    const form = page.getByTestId('block-form')
    await form.waitFor()

    // No account yet: the Model field waits for one, nothing is asked.
    const fetched = form.getByTestId('field-model-fetched')
    await fetched.waitFor()
    assert.equal(await fetched.getAttribute('data-fetch-status'), 'waiting')
    assert.lengthOf(standIn.callsTo('/v1/models'), 0)

    // Choosing the workspace's credentials loads the models.
    await form.getByTestId('field-credentialsId').click()
    await page.getByRole('option', { name: 'Stand-in account' }).click()
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="field-model-fetched"]')
          ?.getAttribute('data-fetch-status') === 'done'
    )
    assert.equal(standIn.callsTo('/v1/models')[0].headers.authorization, `Bearer ${KEY}`)

    await form.getByTestId('field-model-options').click()
    const options = page.getByTestId('fetched-option')
    await options.first().waitFor()
    assert.deepEqual(await options.allTextContents(), ['gpt-4o', 'gpt-4o-mini'])
    await page.locator('[data-testid="fetched-option"][data-value="gpt-4o"]').click()
    assert.equal(await form.getByTestId('field-model').inputValue(), 'gpt-4o')

    // Free text stays allowed (a model the list does not show).
    await form.getByTestId('field-model').fill('my-fine-tune')
    assert.equal(await form.getByTestId('field-model').inputValue(), 'my-fine-tune')
  }).timeout(180_000)

  test('a refused key shows the provider message under the field', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const { page, bot } = await withRefusedKey(visit, cleanup, 'AI form', (credentialsId) => [
      { id: 'ai1', type: 'openai', options: { action: 'Create chat completion', credentialsId } },
    ])
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="ai1"]').click()
    const message = page.getByTestId('field-model-fetch-message')
    await message.getByText('Incorrect API key provided.').waitFor()
    assert.equal(await message.getAttribute('role'), 'alert')
  }).timeout(180_000)

  test("a failed call says why in the preview's logs, and the chat goes on", async ({
    visit,
    assert,
    cleanup,
  }) => {
    const { page, standIn, bot } = await withRefusedKey(
      visit,
      cleanup,
      'AI failure',
      (credentialsId) => [
        {
          id: 'ai1',
          type: 'openai',
          options: {
            action: 'Create chat completion',
            credentialsId,
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'Hello' }],
          },
        },
        {
          id: 'after',
          type: 'text',
          content: { richText: [{ type: 'p', children: [{ text: 'Still here' }] }] },
        },
      ]
    )
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.getByText('Still here').waitFor()
    // The provider's own words reach the builder, in the logs under the preview's chat.
    const logs = panel.getByTestId('preview-logs')
    await logs.getByRole('button').first().click()
    const failed = logs.locator('[data-testid="preview-log-entry"][data-status="error"]')
    await failed.first().waitFor()
    // The entry names the failure; its details hold the provider's answer.
    await failed.first().locator('summary').click()
    const text = await failed.first().innerText()
    assert.match(text, /Incorrect API key provided/)
    assert.isAtLeast(standIn.callsTo('/v1/chat/completions').length, 1)
  }).timeout(180_000)
})
