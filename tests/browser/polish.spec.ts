import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { signInWithLink } from '#tests/browser/helpers'
import { addFromPalette } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * What a builder notices in the first hour (issue 28, "polish"): seen in the browser as they
 * see it.
 */

/** Relative luminance contrast of the first zoom button's icon against its background. */
function controlsContrast(page: Page) {
  return page.evaluate(() => {
    const button = document.querySelector('.react-flow__controls-button') as HTMLElement
    const style = getComputedStyle(button)
    // Any CSS colour (oklch included) to sRGB, through a canvas.
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const context = canvas.getContext('2d', { willReadFrequently: true })!
    const rgb = (color: string) => {
      context.clearRect(0, 0, 1, 1)
      context.fillStyle = color
      context.fillRect(0, 0, 1, 1)
      return Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3))
    }
    const luminance = (color: string) => {
      const [r, g, b] = rgb(color).map((v) => {
        const c = v / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    const icon = luminance(style.color)
    const background = luminance(style.backgroundColor)
    return (Math.max(icon, background) + 0.05) / (Math.min(icon, background) + 0.05)
  })
}

test.group('Polish in the browser', () => {
  test('dark mode: the zoom and fit controls stand out in both editors', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('darkcontrols')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    user.preferredAppAppearance = 'dark'
    await user.save()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Dark' })
    const workflow = await new CreateWorkflow().handle(user, workspace, {})

    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('.react-flow__controls-button').first().waitFor()
    assert.isTrue(await page.evaluate(() => document.documentElement.classList.contains('dark')))
    assert.isAbove(await controlsContrast(page), 3, 'bot editor')

    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('.react-flow__controls-button').first().waitFor()
    assert.isAbove(await controlsContrast(page), 3, 'workflow editor')
  })

  test('a condition node shows its branches, not "nothing to configure"', async ({ visit }) => {
    const email = uniqueEmail('conditionnode')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workflow = await new CreateWorkflow().handle(user, await firstWorkspaceOf(user), {})
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await addFromPalette(page, 'Condition')
    const settings = page.getByTestId('node-settings')
    await settings.getByText('Condition', { exact: false }).first().waitFor()
    await page.getByText('This node has nothing to configure.').waitFor({ state: 'detached' })
  })

  test('the plans page says a plan’s period in the interface language', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('plansfr')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    user.preferredLanguage = 'fr'
    await user.save()
    await page.goto('/bots/plans')
    await page.getByText('Période : 1 mois').first().waitFor()
    assert.notInclude(await page.locator('body').innerText(), 'month')
  })

  test('opening a block at the right edge moves its group out from under the settings panel', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('keptclear')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Wide',
    })
    const bot = await Bot.findOrFail(created.id)
    bot.groups = [
      {
        id: 'g1',
        title: 'Left',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [{ id: 'b1', type: 'text', content: {} }],
      },
      {
        id: 'g2',
        title: 'Far right',
        graphCoordinates: { x: 1500, y: 0 },
        blocks: [{ id: 'b2', type: 'text', content: {} }],
      },
    ] as any
    await bot.save()
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const block = page.locator('[data-testid="block-item"][data-block-id="b2"]')
    await block.waitFor()
    await block.click()
    const panel = page.getByTestId('block-settings')
    await panel.waitFor()
    const group = page.locator('[data-group-id="g2"]')
    // The canvas glides over 200 ms; wait until it stopped clear of the panel.
    let clear = false
    for (let i = 0; i < 50 && !clear; i++) {
      const groupBox = (await group.boundingBox())!
      const panelBox = (await panel.boundingBox())!
      clear = groupBox.x + groupBox.width <= panelBox.x
      if (!clear) await page.waitForTimeout(100)
    }
    assert.isTrue(clear, 'the group is left of the settings panel')
  })
  test('a block dropped at the right edge: its new group moves out from under the settings panel', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('droppedclear')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Dropped',
    })
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const canvas = page.getByTestId('editor-canvas')
    await canvas.waitFor()
    const area = (await canvas.boundingBox())!
    await page
      .getByTestId('sidebar-block-email-input')
      .dragTo(canvas, { targetPosition: { x: area.width - 120, y: 300 } })
    const panel = page.getByTestId('block-settings')
    await panel.waitFor()
    const group = page.getByTestId('group-node').first()
    await group.waitFor()
    let clear = false
    for (let i = 0; i < 50 && !clear; i++) {
      const groupBox = (await group.boundingBox())!
      const panelBox = (await panel.boundingBox())!
      clear = groupBox.x + groupBox.width <= panelBox.x
      if (!clear) await page.waitForTimeout(100)
    }
    assert.isTrue(clear, 'the dropped group is left of the settings panel')
  })
})
