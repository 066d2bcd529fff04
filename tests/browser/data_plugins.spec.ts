import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { sqlPool } from '#sdk/data'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type { BotV6 } from '#shared/bot/types'

/**
 * A bot reading the machine's PostgreSQL: the builder sets up a Get data block in the editor
 * (action, stored credentials, table, a condition on the answer, a column saved in a
 * variable), tries it with the Test button, then chats through it in the preview.
 */

const POSTGRES_URL = process.env.DATA_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 150; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const text = (id: string, value: string) => ({
  id,
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text: value }] }] },
})

test.group('PostgreSQL block in the bot editor', () => {
  test('set up a Get data block, test it, and chat through it', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const table = `fc_orders_${Math.random().toString(36).slice(2, 9)}`
    const db = await sqlPool({ engine: 'postgres', url: POSTGRES_URL, allowInternal: true })
    await db.schema.createTable(table, (t) => {
      t.integer('order_id')
      t.string('status')
    })
    cleanup(() => db.schema.dropTableIfExists(table))
    await db(table).insert([
      { order_id: 7, status: 'shipped' },
      { order_id: 8, status: 'packing' },
    ])

    const email = uniqueEmail('pgblock')
    const page = await visit('/signin')
    // A shared machine under load compiles the editor slowly: wait longer than the default.
    page.setDefaultTimeout(60_000)
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    await new CreateCredential().handle(user, workspace, {
      type: 'postgres',
      name: 'Orders database',
      data: { url: POSTGRES_URL },
    })
    const content = {
      version: '6',
      name: 'Order status',
      groups: [
        {
          id: 'g1',
          title: 'Order',
          graphCoordinates: { x: 300, y: 200 },
          blocks: [
            text('t1', 'Which order?'),
            { id: 'ti1', type: 'text input', options: { variableId: 'v_order' } },
            { id: 'pg1', type: 'postgres', options: {} },
            text('t2', 'Status: {{Status}}'),
          ],
        },
      ],
      events: [
        { id: 'ev1', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
      ],
      edges: [{ id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } }],
      variables: [
        { id: 'v_order', name: 'Order' },
        { id: 'v_status', name: 'Status' },
      ],
      theme: {},
      settings: {},
    } as unknown as BotV6
    const bot = await new CreateBot().handle(user, workspace, { name: 'Order status', content })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="pg1"]').click()
    const settings = page.getByTestId('block-settings')
    await settings.waitFor()

    await settings.getByTestId('block-action').click()
    await page.getByRole('option', { name: 'Get data' }).click()
    const form = settings.getByTestId('block-form')
    await form.getByTestId('field-credentialsId').click()
    await page.getByRole('option', { name: 'Orders database' }).click()
    await form.getByTestId('field-tableName').fill(table)

    await form.getByTestId('field-conditions').getByTestId('list-add').click()
    await form.getByTestId('field-conditions.0.column').fill('order_id')
    await form.getByTestId('field-conditions.0.value').fill('{{Order}}')

    await form.getByTestId('mapping-add').click()
    const row = form.getByTestId('mapping-row').first()
    await row.getByTestId('mapping-source').fill('status')
    const variable = row.getByTestId('mapping-variable')
    await variable.fill('Status')
    await page.getByTestId('variable-suggestions').waitFor()
    await variable.press('ArrowDown')
    await variable.press('Enter')
    assert.equal(await variable.inputValue(), 'Status')

    // Test: the block runs on the server with a value typed for {{Order}}.
    await settings.getByTestId('block-test-value-Order').fill('8')
    await settings.getByTestId('block-test').click()
    const result = settings.getByTestId('block-test-result')
    await result.getByText('Status: packing').waitFor()
    // A table that does not exist shows the failure and the database's words.
    await form.getByTestId('field-tableName').fill('fc_missing_table')
    await settings.getByTestId('block-test').click()
    await result.getByText(/Find failed: .*fc_missing_table/).waitFor()
    await form.getByTestId('field-tableName').fill(table)

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      const options = saved.groups[0].blocks.find((b) => b.id === 'pg1')?.options as any
      return (
        options?.tableName === table && options?.responseMapping?.[0]?.variableId === 'v_status'
      )
    }, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    const options = saved.groups[0].blocks.find((b) => b.id === 'pg1')!.options as any
    assert.equal(options.action, 'Get data')
    assert.deepInclude(options.conditions[0], {
      column: 'order_id',
      operator: 'Equal to',
      value: '{{Order}}',
    })
    assert.notInclude(JSON.stringify(saved.serialize()), POSTGRES_URL)

    // Chat through it: the answer picks the row.
    await settings.getByTestId('block-settings-close').click()
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.getByText('Which order?').waitFor()
    await panel.getByRole('textbox').fill('7')
    await panel.getByRole('textbox').press('Enter')
    await panel.getByText('Status: shipped').waitFor()
  }).timeout(240_000)
})
