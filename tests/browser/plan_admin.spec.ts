import { test } from '@japa/runner'
import type { Page } from 'playwright'
import User from '#models/user'
import WorkspaceInvitation from '#models/workspace_invitation'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import AdminAuditLog from '#models/admin_audit_log'
import { aiCreditsText } from '#services/ai/credits'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/*
 * Plans in the browser (docs/architecture.md, "Plans without billing"): actions at their
 * limit are disabled with the reason before a form opens, and an admin lifts the limit at
 * /admin/workspaces, on a desktop and on a phone.
 */

async function noSidewaysScroll(page: Page, width: number) {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }))
  return widths.document <= width && widths.body <= width
}

/** A FREE account (.env.test) with its one bot, one workflow and its seats taken. */
async function accountAtItsLimits(page: Page, prefix: string) {
  const email = uniqueEmail(prefix)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  await new CreateBot().handle(user, workspace, { name: 'The one bot' })
  await new CreateWorkflow().handle(user, workspace, { name: 'The one workflow' })
  await WorkspaceInvitation.create({
    workspaceId: workspace.id,
    email: uniqueEmail('seat'),
    role: 'MEMBER',
  })
  return { email, user, workspace }
}

test.group('Plans in the browser', () => {
  test('limits disable actions with the reason; an admin lifts them at 1440 px', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    const { email, user, workspace } = await accountAtItsLimits(page, 'limits')

    // Bots: the create button is disabled, the reason and the way to the plans beside it.
    await page.goto('/bots')
    const createBot = page.getByTestId('create-bot')
    await createBot.waitFor()
    assert.isTrue(await createBot.isDisabled())
    const botReason = page.getByTestId('plan-limit-botCreation').first()
    assert.include(await botReason.innerText(), 'Bot limit reached: your plan allows 1.')
    // Nobody but admins sees the admin link.
    assert.equal(await page.getByTestId('nav-admin').count(), 0)

    // Workflows: create and import wait too.
    await page.getByTestId('nav-workflows').click()
    await page.waitForURL(/\/workflows$/)
    await page.getByTestId('plan-limit-workflowCreation').first().waitFor()
    assert.isTrue(await page.getByTestId('create-workflow').first().isDisabled())
    assert.isTrue(await page.getByTestId('import-workflow').first().isDisabled())

    // A second workspace: the menu item is disabled and says why.
    await page.getByTestId('workspace-switcher').click()
    const newWorkspace = page.getByTestId('new-workspace')
    assert.equal(await newWorkspace.getAttribute('aria-disabled'), 'true')
    await page.getByTestId('plan-limit-multipleWorkspace').waitFor()
    await page.keyboard.press('Escape')

    // Members: owner + one invitation fill the two seats of FREE.
    await page.goto('/settings/workspace/member')
    await page.getByTestId('plan-limit-multipleUser').waitFor()
    assert.isTrue(await page.getByTestId('invite-email').isDisabled())
    assert.isTrue(await page.getByTestId('invite-submit').isDisabled())

    // The way to upgrade: the Plans page, which says billing is off.
    await page.getByTestId('plan-limit-multipleUser').getByRole('link').click()
    await page.waitForURL(/\/bots\/plans$/)
    await page.getByTestId('billing-off').waitFor()

    // The admin finds the account and lifts its plan.
    await signInWithLink(page, 'admin@example.com')
    await page.getByTestId('nav-admin').click()
    await page.waitForURL(/\/admin\/workspaces$/)
    assert.include(await page.getByTestId('admin-billing-status').innerText(), 'Billing is off')
    await page.getByTestId('admin-search').fill(email)
    await page.getByTestId('admin-search').press('Enter')
    await page.waitForURL(/\/admin\/workspaces\?q=/)
    const card = page.locator(`[data-testid="admin-workspace"][data-id="${workspace.id}"]`)
    await card.waitFor()
    assert.equal(
      await card.getByTestId('admin-usage-botCreation').getAttribute('data-full'),
      'true'
    )
    assert.include(await card.getByTestId('admin-usage-botCreation').innerText(), '1 / 1')

    const account = page.locator(`[data-testid="admin-user"][data-email="${email}"]`)
    await account.getByTestId('admin-user-plan').click()
    await page.getByTestId('admin-plan-select').click()
    await page.getByRole('option', { name: 'Standard' }).click()
    await page.getByTestId('admin-plan-save').click()
    await page.getByTestId('admin-plan-dialog').waitFor({ state: 'detached' })
    await account.getByTestId('admin-plan-badge').getByText('Standard').waitFor()
    await user.refresh()
    assert.equal(user.plan, 'STANDARD')

    // Suspend (asked first), then lift it.
    await card.getByTestId('admin-suspend').click()
    await page.getByTestId('confirm-action').click()
    await card.getByTestId('admin-suspended-badge').waitFor()
    await card.getByTestId('admin-unsuspend').click()
    await card.getByTestId('admin-suspended-badge').waitFor({ state: 'detached' })

    // AI credits: typed and granted from the keyboard.
    await account.getByTestId('admin-user-credits-grant').click()
    await page.getByTestId('admin-credits-amount').fill('5')
    await page.getByTestId('admin-credits-amount').press('Enter')
    await page.getByTestId('admin-credits-dialog').waitFor({ state: 'detached' })
    await account.getByTestId('admin-user-credits').getByText('15.000000000').waitFor()
    assert.equal(await aiCreditsText(user.id), '15.000000000')

    // Each change is in the log with the admin's e-mail.
    const entries = page.getByTestId('admin-audit-entry')
    await entries.first().getByText(`granted 5 AI credits to ${email}`).waitFor()
    assert.include(await entries.nth(1).innerText(), 'admin@example.com')
    const logged = await AdminAuditLog.query()
      .whereIn('target_id', [user.id, workspace.id])
      .orderBy('id')
    assert.deepEqual(
      logged.map((row) => row.action),
      // The account's plan, then the plan of the workspace it created (what is enforced there).
      ['plan', 'plan', 'suspend', 'unsuspend', 'ai_credits']
    )

    // Back as the customer: a new bot is one click away again.
    await signInWithLink(page, email)
    await page.getByTestId('create-bot').click()
    await page.getByTestId('create-bot-dialog').waitFor()
  }).timeout(120_000)

  test('the admin page works on a 390 px phone', async ({ visit, assert }) => {
    const page = await visit('/signin')
    await page.setViewportSize({ width: 390, height: 844 })
    const { workspace } = await accountAtItsLimits(page, 'phone')
    await signInWithLink(page, 'admin@example.com')
    await page.getByTestId('nav-admin').click()
    await page.waitForURL(/\/admin\/workspaces$/)
    await page.getByTestId('admin-search').fill(workspace.id)
    await page.getByTestId('admin-search-submit').click()
    const card = page.locator(`[data-testid="admin-workspace"][data-id="${workspace.id}"]`)
    await card.waitFor()
    assert.isTrue(await noSidewaysScroll(page, 390))

    await card.getByTestId('admin-workspace-plan').click()
    await page.getByTestId('admin-plan-select').click()
    await page.getByRole('option', { name: 'Basic' }).click()
    await page.getByTestId('admin-plan-ends').fill('2031-06-30')
    await page.getByTestId('admin-plan-save').click()
    await page.getByTestId('admin-plan-dialog').waitFor({ state: 'detached' })
    await card.getByTestId('admin-plan-badge').getByText('Basic').waitFor()
    await workspace.refresh()
    assert.equal(workspace.plan, 'BASIC')
    assert.equal(workspace.planEndsAt!.toUTC().toISODate(), '2031-06-30')
    assert.isTrue(await noSidewaysScroll(page, 390))
  }).timeout(120_000)
})
