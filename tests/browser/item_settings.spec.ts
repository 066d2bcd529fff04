import { test } from '@japa/runner'
import Bot from '#models/bot'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { signedIn } from '#tests/browser/helpers'
import { addFromPalette, waitFor } from '#tests/browser/workflow_helpers'

/**
 * The repeated items of the settings panel, one section in both editors
 * (resources/features/editor_shell/items_section.tsx): a bot block's items and a condition
 * node's branches are added, deleted down to the fewest the plugin allows, and the refused
 * delete says why, each with its own surface's test ids and texts.
 */

const WIDE = { width: 1440, height: 900 }

test.group('Settings panel: repeated items', () => {
  test('a bot block: items added and deleted, the last one and a two-item floor refused', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'itemsbot', WIDE)
    const created = await new CreateBot().handle(user, workspace, { name: 'Items' })
    const bot = await Bot.findOrFail(created.id)
    const withItems = (id: string, type: string, items: Record<string, unknown>[]) => ({
      id,
      type,
      items,
    })
    const start = { id: 'g1', title: 'Start', graphCoordinates: { x: 320, y: 0 } }
    // Buttons: one at least; an AB test: its two paths exactly.
    const choice = withItems('choice', 'choice input', [
      { id: 'b1', content: 'Yes' },
      { id: 'b2', content: 'No' },
    ])
    const split = withItems('split', 'AB test', [
      { id: 'pa', path: 'a' },
      { id: 'pb', path: 'b' },
    ])
    bot.groups = [{ ...start, blocks: [choice, split] }] as any
    await bot.save()
    const savedItems = async (blockId: string) => {
      const saved = await Bot.findOrFail(bot.id)
      const block = (saved.groups as any[])[0].blocks.find((b: any) => b.id === blockId)
      return (block?.items ?? []) as { id: string; content?: string }[]
    }

    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="choice"]').click()
    const section = page.getByTestId('block-settings').getByTestId('items-editor')
    const items = section.getByTestId('item-editor')
    await waitFor(async () => (await items.count()) === 2, 'the two buttons')
    assert.equal(await section.locator('h3').innerText(), 'Items')
    assert.equal(
      await items.nth(0).getByTestId('field-content').getAttribute('id'),
      'item-b1-content'
    )

    // An item's form writes that item.
    await items.nth(1).getByTestId('field-content').fill('Maybe')
    await waitFor(async () => (await savedItems('choice'))[1]?.content === 'Maybe', 'the edit')

    await section.getByTestId('item-add').click()
    await waitFor(async () => (await savedItems('choice')).length === 3, 'the item added')
    assert.equal(await items.count(), 3)
    assert.isNull(await items.nth(0).getByTestId('item-delete').getAttribute('title'))

    await items.nth(2).getByTestId('item-delete').click()
    await items.nth(1).getByTestId('item-delete').click()
    await waitFor(async () => (await savedItems('choice')).length === 1, 'two items deleted')
    assert.equal(await section.getByTestId('item-refusal').count(), 0)

    // The last one stays, and the panel says why (also on the delete button).
    const lastItem = "The last item can't be deleted: a block needs at least one."
    const remove = items.nth(0).getByTestId('item-delete')
    assert.equal(await remove.getAttribute('aria-disabled'), 'true')
    assert.equal(await remove.getAttribute('title'), lastItem)
    // (aria-disabled: Playwright clicks it only when forced; a builder can click it)
    await remove.click({ force: true })
    assert.equal(await section.getByTestId('item-refusal').innerText(), lastItem)
    assert.lengthOf(await savedItems('choice'), 1)
    // Adding one takes the refusal away.
    await section.getByTestId('item-add').click()
    await section.getByTestId('item-refusal').waitFor({ state: 'detached' })
    await waitFor(async () => (await savedItems('choice')).length === 2, 'the item added again')

    // An AB test has two paths, no fewer, no more.
    await page.locator('[data-testid="block-item"][data-block-id="split"]').click()
    await waitFor(async () => (await items.count()) === 2, 'the two paths')
    assert.equal(await section.getByTestId('item-add').count(), 0)
    await items.nth(0).getByTestId('item-delete').click({ force: true })
    assert.equal(
      await section.getByTestId('item-refusal').innerText(),
      'This block needs at least 2 items: delete one only after adding another.'
    )
    assert.lengthOf(await savedItems('split'), 2)
  })

  test('a condition node: branches added and deleted, the last one refused', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'itemsflow', WIDE)
    const workflow = await new CreateWorkflow().handle(user, workspace, {})
    await page.goto(`/workflows/${workflow.id}`)
    await addFromPalette(page, 'Condition')
    const section = page.getByTestId('node-settings').getByTestId('branches-editor')
    const branches = section.getByTestId('branch-editor')
    await waitFor(async () => (await branches.count()) === 1, 'the first branch')
    assert.equal(await section.locator('h3').innerText(), 'Branches')
    assert.include(await section.innerText(), 'The first branch whose condition holds is followed')
    const firstId = await branches.nth(0).getAttribute('data-condition-id')
    assert.isString(firstId)

    // The last branch stays; the refusal is said under the branches only.
    const remove = branches.nth(0).getByTestId('branch-delete')
    assert.equal(await remove.getAttribute('aria-label'), 'Delete branch 1')
    assert.isNull(await remove.getAttribute('title'))
    await remove.click({ force: true })
    assert.equal(
      await section.getByTestId('branch-refusal').innerText(),
      'A condition keeps at least one branch.'
    )
    assert.equal(await branches.count(), 1)

    await section.getByTestId('branch-add').click()
    await section.getByTestId('branch-refusal').waitFor({ state: 'detached' })
    await waitFor(async () => (await branches.count()) === 2, 'the branch added')
    assert.equal(await branches.nth(1).locator('span').first().innerText(), 'Branch 2')

    await branches.nth(0).getByTestId('branch-delete').click()
    await waitFor(async () => (await branches.count()) === 1, 'the first branch deleted')
    assert.notEqual(await branches.nth(0).getAttribute('data-condition-id'), firstId)
    assert.equal(await section.getByTestId('branch-refusal').count(), 0)
  })
})
