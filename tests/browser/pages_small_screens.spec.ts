import { test } from '@japa/runner'
import { signInWithLink } from '#tests/browser/helpers'
import { uniqueEmail } from '#tests/helpers'

test.group('Sign-in and plans pages', () => {
  test('sign-in offers no password help: the app has no passwords', async ({ visit, assert }) => {
    const page = await visit('/signin')
    await page.getByTestId('signin-email').waitFor()
    assert.equal(await page.locator('a[href="/forgot-password"]').count(), 0)
    assert.equal(await page.getByText(/forgot/i).count(), 0)
  })

  test('the plans page does not scroll sideways at 390 px', async ({ visit, assert }) => {
    const page = await visit('/signin')
    await signInWithLink(page, uniqueEmail('plans390'))
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/bots/plans')
    await page.waitForLoadState('networkidle')
    const widths = await page.evaluate(() => ({
      document: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
    }))
    assert.isAtMost(widths.document, 390, JSON.stringify(widths))
    assert.isAtMost(widths.body, 390, JSON.stringify(widths))
  })
})
