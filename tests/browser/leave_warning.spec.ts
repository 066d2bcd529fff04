import { test } from '@japa/runner'
import type { Page, Route } from 'playwright'
import Bot from '#models/bot'
import Workflow from '#models/workflow'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { signedIn } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'

/**
 * The browser asks before leaving while unsaved changes exist, in both
 * editors (the shared hook of resources/lib/use_autosave.ts), not only when the draft is too
 * large to leave with the page. The draft's save is held at the network so that "unsaved"
 * lasts as long as the test needs, however slow the machine.
 */

/**
 * Holds the draft's saves until released, whichever way they go: the REST PATCH of `path`,
 * and once the editor edits the shared draft live (docs/editor.md "Editing together"), its
 * updates and writes (`/api/coedit/:kind/:id/...`). GETs and others pass.
 */
async function holdSaves(page: Page, path: string) {
  const held: Route[] = []
  const shared = path.replace('/api/v1/', '/api/coedit/')
  const patterns = [`**${path}`, `**${shared}/updates`, `**${shared}/write`]
  for (const pattern of patterns) {
    await page.route(pattern, (route) => {
      if (['PATCH', 'POST'].includes(route.request().method())) held.push(route)
      else void route.continue()
    })
  }
  return {
    held,
    async release() {
      // Continued before the handler goes: unrouting hands pending requests on by itself.
      for (const route of held.splice(0)) await route.continue()
      for (const pattern of patterns) await page.unroute(pattern)
    },
  }
}

/** Whether leaving now would make the browser ask (what a beforeunload listener decides). */
function asksBeforeLeaving(page: Page) {
  return page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(event)
    return event.defaultPrevented
  })
}

async function assertLeaveWarning(
  page: Page,
  assert: any,
  { input, path, edited }: { input: string; path: string; edited: () => Promise<boolean> }
) {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => dialogs.push(dialog.type()))
  const field = page.getByTestId(input)
  await field.waitFor()
  assert.isFalse(await asksBeforeLeaving(page), 'nothing unsaved yet')

  const saves = await holdSaves(page, path)
  await field.fill('Renamed, not saved yet')
  await field.press('Enter')
  await waitFor(async () => saves.held.length > 0, 'the autosave to leave')
  assert.isTrue(await asksBeforeLeaving(page), 'a small unsaved draft makes the browser ask')
  assert.isTrue(await asksBeforeLeaving(page), 'asking does not drop the pending save')

  await saves.release()
  await waitFor(edited, 'the held save to arrive')
  await page
    .locator('[data-testid="save-status"][data-status="saved"]')
    .waitFor({ state: 'attached' })
  assert.isFalse(await asksBeforeLeaving(page), 'saved: leaving asks nothing')

  // A real reload with a change not yet sent: the browser shows its leave dialog (the
  // person, here the test harness, answers Leave) and the draft still leaves with the page.
  await field.fill('Renamed at once')
  await field.press('Enter')
  await page.reload()
  await page.getByTestId(input).waitFor()
  assert.include(dialogs, 'beforeunload')
}

test.group('Leave warning', () => {
  test('bot editor: the browser asks before leaving while a change is unsaved', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'leave-bot')
    const bot = await new CreateBot().handle(user, workspace, { name: 'Greeter' })
    await page.goto(`/bots/${bot.id}/edit`)
    await assertLeaveWarning(page, assert, {
      input: 'bot-name',
      path: `/api/v1/bots/${bot.id}`,
      edited: async () => (await Bot.findOrFail(bot.id)).name === 'Renamed, not saved yet',
    })
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).name === 'Renamed at once',
      'the draft sent on leaving'
    )
  })

  test('workflow editor: the browser asks before leaving while a change is unsaved', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'leave-workflow')
    const workflow = await new CreateWorkflow().handle(user, workspace, {})
    await page.goto(`/workflows/${workflow.id}`)
    await assertLeaveWarning(page, assert, {
      input: 'workflow-name',
      path: `/api/v1/workflows/${workflow.id}`,
      edited: async () =>
        (await Workflow.findOrFail(workflow.id)).name === 'Renamed, not saved yet',
    })
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).name === 'Renamed at once',
      'the draft sent on leaving'
    )
  })
})
