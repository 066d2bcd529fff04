import { test } from '@japa/runner'
import type { Page } from 'playwright'
import User from '#models/user'
import Workflow from '#models/workflow'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { RemoveMember } from '#actions/workspaces/remove_member'
import type { WorkspaceRole } from '#shared/workspace_roles'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * Editing together in the workflow editor (docs/editor.md "Editing together"): builders in
 * browser contexts of their own on one workflow, with real gestures.
 */

async function seedWorkflow(email: string) {
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Shared flow' })
  workflow.merge({
    blocks: [
      { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
      { id: 'http', type: 'workflow-http-request', graphCoordinates: { x: 340, y: -100 } },
      { id: 'mail', type: 'send-email', graphCoordinates: { x: 340, y: 160 } },
    ],
    edges: [],
  })
  await workflow.save()
  user.name = 'Ann'
  await user.save()
  return { user, workspace, workflow }
}

async function colleague(page: Page, workspace: Workspace, name: string, role: WorkspaceRole) {
  const email = uniqueEmail(name.toLowerCase())
  const context = await page
    .context()
    .browser()!
    .newContext({
      baseURL: `http://127.0.0.1:${process.env.PORT}`,
      viewport: { width: 1440, height: 900 },
    })
  const other = await context.newPage()
  await signInWithLink(other, email)
  const user = await User.findByOrFail('email', email)
  user.name = name
  await user.save()
  await WorkspaceMember.create({ workspaceId: workspace.id, userId: user.id, role })
  return { context, page: other, user }
}

async function openEditor(page: Page, id: string) {
  await page.goto(`/workflows/${id}`)
  await page.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()
  // Joined the shared draft (until then, saves go the REST way).
  await page.getByTestId('coedit-live').waitFor({ state: 'attached', timeout: 30_000 })
}

const nodeBox = (page: Page, id: string) =>
  page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`).boundingBox()

async function stored(id: string) {
  return Workflow.findOrFail(id)
}

test.group('Editing together: the workflow editor', () => {
  test('presence, a rename and a move at once, per-person undo, guest and removed member', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('coedit-wf')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { workflow, workspace } = await seedWorkflow(email)
    const bob = await colleague(ann, workspace, 'Bob', 'MEMBER')
    const guest = await colleague(ann, workspace, 'Gail', 'GUEST')
    try {
      await openEditor(ann, workflow.id)
      await openEditor(bob.page, workflow.id)
      await openEditor(guest.page, workflow.id)
      for (const [page, others] of [
        [ann, ['Bob', 'Gail']],
        [bob.page, ['Ann', 'Gail']],
      ] as const) {
        for (const name of others) {
          await page.locator(`[data-testid="coedit-peer"][data-user-name="${name}"]`).waitFor()
        }
      }
      // Bob's pointer shows on Ann's canvas, with his name.
      const pane = (await bob.page.locator('.react-flow__pane').boundingBox())!
      await bob.page.mouse.move(pane.x + pane.width * 0.6, pane.y + pane.height * 0.7, {
        steps: 5,
      })
      await ann.locator('[data-testid="coedit-cursor"][data-user-name="Bob"]').waitFor()

      // Ann renames the workflow while Bob drags the mail node down.
      const name = ann.getByTestId('workflow-name')
      await name.click()
      await name.fill('Renamed by Ann')
      const before = (await nodeBox(bob.page, 'mail'))!
      const grip = { x: before.x + before.width / 2, y: before.y + before.height / 2 }
      await bob.page.mouse.move(grip.x, grip.y)
      await bob.page.mouse.down()
      await name.press('Enter')
      await bob.page.mouse.move(grip.x, grip.y + 200, { steps: 12 })
      await bob.page.mouse.up()
      await waitFor(async () => {
        const draft = await stored(workflow.id)
        const mail = draft.blocks.find((block) => block.id === 'mail')!
        return draft.name === 'Renamed by Ann' && mail.graphCoordinates.y > 200
      }, 'the rename and the move both in the draft')
      // Each sees the other's change.
      await waitFor(
        async () => (await bob.page.getByTestId('workflow-name').inputValue()) === 'Renamed by Ann',
        'the name in Bob’s header'
      )
      await waitFor(async () => {
        const [a, b] = [await nodeBox(ann, 'mail'), await nodeBox(bob.page, 'mail')]
        return !!a && !!b && Math.abs(b.y - before.y - 200) < 40 && Math.abs(a.y - b.y) < 2
      }, 'the node moved in both editors')
      // The guest watched it live.
      await waitFor(
        async () =>
          ((await guest.page.getByTestId('workflow-name').textContent()) ?? '') ===
          'Renamed by Ann',
        'the name in the guest’s header'
      )

      // Bob's Ctrl+Z undoes his move, not Ann's rename.
      await bob.page.mouse.click(pane.x + pane.width * 0.6, pane.y + pane.height - 60)
      await bob.page.keyboard.press('Control+z')
      await waitFor(async () => {
        const draft = await stored(workflow.id)
        const mail = draft.blocks.find((block) => block.id === 'mail')!
        return draft.name === 'Renamed by Ann' && mail.graphCoordinates.y === 160
      }, 'his move undone, her name kept')
      assert.equal(await ann.getByTestId('workflow-name').inputValue(), 'Renamed by Ann')

      // The guest cannot edit: no palette, the name is not a field.
      assert.equal(await guest.page.getByTestId('palette-node-send-email').count(), 0)
      assert.equal(
        await guest.page.evaluate(
          () => document.querySelector('[data-testid="workflow-name"]')?.tagName
        ),
        'H1'
      )

      // Bob is removed from the workspace while a move of his is not saved yet: his editor
      // closes at once, without the browser asking him to stay for what he can no longer save.
      const asked: string[] = []
      bob.page.on('dialog', (dialog) => {
        asked.push(dialog.type())
        void dialog.dismiss()
      })
      const http = (await nodeBox(bob.page, 'http'))!
      await bob.page.mouse.move(http.x + http.width / 2, http.y + http.height / 2)
      await bob.page.mouse.down()
      await bob.page.mouse.move(http.x + http.width / 2, http.y + http.height / 2 + 80, {
        steps: 6,
      })
      await bob.page.mouse.up()
      await new RemoveMember().handle(workspace, bob.user.id)
      // The page loaded again says he has no access (a count of nodes alone would pass while
      // the reload is under way).
      await bob.page.getByText('Workflow not found').waitFor({ timeout: 30_000 })
      assert.equal(await bob.page.locator('[data-testid="workflow-node"]').count(), 0)
      assert.deepEqual(asked, [])
    } finally {
      await bob.context.close()
      await guest.context.close()
    }
  }).timeout(420_000)

  test('the tab hidden while a batch is on its way: the write sent then says the draft is saved', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('coedit-hide')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { workflow } = await seedWorkflow(email)
    // The batch of updates (not the write) is held on its way, as a slow network would.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let held = 0
    await ann.route(`**/api/coedit/workflows/${workflow.id}/updates`, async (route) => {
      const body = route.request().postDataJSON() as { write?: boolean }
      if (body.write) return route.continue()
      held += 1
      await released
      await route.continue()
    })
    try {
      await openEditor(ann, workflow.id)
      const before = (await nodeBox(ann, 'mail'))!
      const grip = { x: before.x + before.width / 2, y: before.y + before.height / 2 }
      await ann.mouse.move(grip.x, grip.y)
      await ann.mouse.down()
      await ann.mouse.move(grip.x, grip.y + 150, { steps: 8 })
      await ann.mouse.up()
      await waitFor(async () => held > 0, 'the batch on its way')
      await ann.locator('[data-testid="save-status"][data-status="unsaved"]').waitFor()

      await hideTab(ann)
      await waitFor(async () => {
        const mail = (await stored(workflow.id)).blocks.find((block) => block.id === 'mail')!
        return mail.graphCoordinates.y > 200
      }, 'the move written')
      // Saved by the write's answer, while the earlier batch is still on its way.
      await ann.locator('[data-testid="save-status"][data-status="saved"]').waitFor()
      assert.equal(held, 1)
    } finally {
      release()
    }
  }).timeout(120_000)

  test('a change a colleague sends while this editor is joining is applied after the join', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('coedit-join')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { workflow, workspace } = await seedWorkflow(email)
    const bob = await colleague(ann, workspace, 'Bob', 'MEMBER')
    // Ann's join reads the shared state, whose answer is held on its way back: the state she
    // gets is older than what Bob sends meanwhile.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let read = false
    await ann.route(`**/api/coedit/workflows/${workflow.id}`, async (route) => {
      const response = await route.fetch()
      read = true
      await released
      await route.fulfill({ response })
    })
    try {
      await openEditor(bob.page, workflow.id)
      await ann.goto(`/workflows/${workflow.id}`)
      await waitFor(async () => read, 'Ann’s join read the state')
      const name = bob.page.getByTestId('workflow-name')
      await name.click()
      await name.fill('Renamed by Bob')
      await name.press('Enter')
      // Written by the server, so sent on the channel to Ann before that.
      await waitFor(
        async () => (await stored(workflow.id)).name === 'Renamed by Bob',
        'Bob’s rename written'
      )
      assert.equal(await ann.getByTestId('coedit-live').count(), 0)
      release()
      await ann.getByTestId('coedit-live').waitFor({ state: 'attached' })
      await waitFor(
        async () => (await ann.getByTestId('workflow-name').inputValue()) === 'Renamed by Bob',
        'Bob’s rename in Ann’s header'
      )
    } finally {
      release()
      await bob.context.close()
    }
  }).timeout(120_000)
})
