import type { Locator, Page } from 'playwright'

/** Canvas steps shared by the workflow editor's browser tests. */

export async function waitFor(check: () => Promise<boolean>, what: string, tries = 150) {
  for (let i = 0; i < tries; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

export const nodeOfType = (page: Page, type: string) =>
  page.locator(`[data-testid="workflow-node"][data-node-type="${type}"]`)

/** Adds a node by clicking its palette entry; its settings open. Returns the node. */
export async function addFromPalette(page: Page, type: string): Promise<Locator> {
  const before = await nodeOfType(page, type).count()
  await page.getByTestId(`palette-node-${type}`).click()
  await waitFor(async () => (await nodeOfType(page, type).count()) === before + 1, `a ${type}`)
  const node = nodeOfType(page, type).nth(before)
  const id = await node.getAttribute('data-node-id')
  await page.locator(`[data-testid="node-settings"][data-node-id="${id}"]`).waitFor()
  return node
}

/** Draws an edge the way a builder does: from a source handle to a target handle. */
export async function drag(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!
  const end = (await to.boundingBox())!
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
  await page.mouse.down()
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 })
  await page.mouse.up()
}

export async function closeSettings(page: Page) {
  if (await page.getByTestId('node-settings').isVisible()) {
    await page.getByTestId('node-settings-close').click()
    await page.getByTestId('node-settings').waitFor({ state: 'detached' })
  }
}
