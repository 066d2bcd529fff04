import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import Folder from '#models/folder'
import FolderShare from '#models/folder_share'
import User from '#models/user'
import WorkspaceMember from '#models/workspace_member'
import { signInWithLink } from '#tests/browser/helpers'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/** The dialog fits the viewport: nothing of it sticks out, nor does the page scroll sideways. */
async function assertDialogFits(page: Page, assert: any, width: number) {
  const box = (await page.getByTestId('share-folder-dialog').boundingBox())!
  assert.isAtLeast(box.x, 0)
  assert.isAtMost(box.x + box.width, width)
  assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), width)
}

test.group('Folder sharing in the browser', () => {
  test('share a folder with one member; the other member does not see it (1440 and 390 px)', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('share-owner')
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(page, email)
    const owner = await User.findByOrFail('email', email)
    await setUserPlan(owner, 'STANDARD')
    const workspace = await firstWorkspaceOf(owner)
    workspace.plan = 'STANDARD'
    workspace.planEndsAt = owner.planEndsAt
    await workspace.save()
    const alice = await createUser({ name: 'Alice Shared' })
    const bob = await createUser({ name: 'Bob Outside' })
    for (const member of [alice, bob]) {
      await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    }
    const folder = await Folder.create({
      workspaceId: workspace.id,
      name: 'Finance',
      createdBy: owner.id,
    })
    await Bot.create({
      workspaceId: workspace.id,
      folderId: folder.id,
      name: 'Invoices bot',
      version: '6',
      groups: [],
      edges: [],
      events: [],
      variables: [],
      settings: {},
      theme: {},
    } as any)
    await page.reload()

    // The folder's menu, then "Share", with the keyboard and the pointer.
    const card = page.getByTestId('folder-card').filter({ hasText: 'Finance' })
    await card.getByTestId('folder-menu').click()
    await page.getByTestId('folder-share').click()
    const dialog = page.getByTestId('share-folder-dialog')
    await dialog.getByText('Everyone in the workspace').waitFor()
    await assertDialogFits(page, assert, 1440)
    await dialog.getByTestId('share-restricted').click()
    await dialog.getByTestId('share-member-picker').click()
    await page.getByRole('option', { name: /Alice Shared/ }).click()
    await dialog.getByTestId('share-add').click()
    const aliceRow = dialog.getByTestId('share-person').filter({ hasText: 'Alice Shared' })
    await aliceRow.waitFor()
    await aliceRow.getByTestId('share-access').click()
    await page.getByRole('option', { name: 'Can edit' }).click()
    await dialog.getByTestId('share-save').click()
    await dialog.waitFor({ state: 'hidden' })
    await card.getByTestId('folder-restricted').waitFor()

    const shares = await FolderShare.query().where('folder_id', folder.id)
    assert.deepEqual(
      shares.map((s) => [s.userId, s.access]),
      [[alice.id, 'edit']]
    )
    assert.isTrue((await Folder.findOrFail(folder.id)).isRestricted)

    // At 390 px the dialog shows the same people and fits the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    await card.getByTestId('folder-menu').click()
    await page.getByTestId('folder-share').click()
    await dialog.getByTestId('share-person').filter({ hasText: 'Alice Shared' }).waitFor()
    await assertDialogFits(page, assert, 390)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })

    // Alice sees the folder and its bot; Bob sees neither, nor can he open it by URL.
    // They have their own first workspace: the owner's is picked by its id.
    await signInWithLink(page, alice.email)
    await page.goto(`/bots?workspaceId=${workspace.id}`)
    await page.getByTestId('folder-card').filter({ hasText: 'Finance' }).click()
    await page.getByTestId('bot-card').filter({ hasText: 'Invoices bot' }).waitFor()

    await signInWithLink(page, bob.email)
    await page.goto(`/bots?workspaceId=${workspace.id}`)
    await page.getByTestId('create-bot').first().waitFor()
    assert.equal(await page.getByTestId('folder-card').count(), 0)
    const response = await page.goto(`/bots?workspaceId=${workspace.id}&folderId=${folder.id}`)
    assert.equal(response?.status(), 404)
  })

  test('without userWiseFolderShare the dialog says why and links to the plans first', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('share-basic')
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(page, email)
    const owner = await User.findByOrFail('email', email)
    await setUserPlan(owner, 'BASIC')
    const workspace = await firstWorkspaceOf(owner)
    await Folder.create({ workspaceId: workspace.id, name: 'Basic folder', createdBy: owner.id })
    await page.reload()

    await page.getByTestId('folder-menu').click()
    const action = page.getByTestId('folder-share')
    assert.equal(await action.getAttribute('data-locked'), 'true')
    await action.click()
    const dialog = page.getByTestId('share-folder-dialog')
    await dialog.getByTestId('share-locked').waitFor()
    assert.isTrue(await dialog.getByTestId('share-restricted').isDisabled())
    await dialog.getByRole('link', { name: 'Upgrade your plan' }).click()
    await page.waitForURL(/\/bots\/plans$/)
  })
})
