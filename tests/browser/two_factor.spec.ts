import { test } from '@japa/runner'
import { generate } from 'otplib'
import type { Page } from 'playwright'
import { signInThroughMailbox } from '#tests/browser/helpers'
import { uniqueEmail } from '#tests/helpers'

const PERIOD_SECONDS = 30
const usedSteps = new Map<string, number>()

/**
 * The code an authenticator app shows for this key. A code is accepted once (docs/security.md,
 * "Two-factor sign-in") and the server takes the codes of one period either side of its clock:
 * a second code within the same period is the next period's (an app running a little ahead),
 * so the test does not sit out up to 30 s for the app's next code. Either code still passes
 * if a period ends before the server checks it. Only a third code in one period waits.
 */
async function appCode(secret: string) {
  const current = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS)
  const used = usedSteps.get(secret) ?? 0
  while (current() + 1 <= used) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const step = Math.max(current(), used + 1)
  usedSteps.set(secret, step)
  return generate({ secret, epoch: step * PERIOD_SECONDS })
}

async function openLatestLink(page: Page, email: string) {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`)
  await page.getByTestId('mail-link').first().click()
}

test.group('Two-factor sign-in in the browser', () => {
  test('enable in settings, sign out, sign in by link, give the code, land in the app', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('twofa')
    const page = await visit('/signin')
    // The dev server compiles the settings modal and the dashboard behind it on first visit.
    page.setDefaultTimeout(90_000)
    page.setDefaultNavigationTimeout(90_000)
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInThroughMailbox(page, email)

    // Settings, Security: set up with the key shown (as a person types it into the app).
    await page.goto('/settings/account/security')
    await page.getByTestId('two-factor-status').getByText('Off').waitFor()
    await page.getByTestId('two-factor-start').click()
    await page.getByTestId('two-factor-qr').waitFor()
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '')
    assert.match(secret, /^[A-Z2-7]{16,}$/)

    const confirmField = page.getByTestId('two-factor-confirm-code')
    await confirmField.click()
    await page.keyboard.type('000000')
    await page.getByTestId('two-factor-confirm').click()
    await page
      .getByText('Type the 6-digit code your authenticator app shows now.')
      .first()
      .waitFor()

    await confirmField.fill('')
    await confirmField.pressSequentially(await appCode(secret))
    await page.keyboard.press('Enter')
    await page.getByTestId('recovery-codes').waitFor()
    assert.equal(await page.getByTestId('recovery-code').count(), 10)
    await page.getByTestId('two-factor-status').getByText('On').waitFor()
    await page.getByTestId('copy-recovery-codes').click()
    await page.getByTestId('copy-recovery-codes').getByText('Copied').waitFor()

    // Log out from the user menu (GET /api/2fa/clearTwoFA, then the logout).
    await page.goto('/bots')
    const cleared = page.waitForResponse((r) => r.url().endsWith('/api/2fa/clearTwoFA'))
    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    assert.equal((await cleared).status(), 200)
    await page.waitForURL(/\/signin$/)
    await page.getByText('Logged out successfully').waitFor()

    // Sign in again by link, on a phone: the code page comes first.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByTestId('signin-email').fill(email)
    await page.getByTestId('signin-submit').click()
    await page.waitForURL(/\/signin\/check-email/)
    await openLatestLink(page, email)
    await page.waitForURL(/\/signin\/two-factor$/)
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
    // Nothing else opens meanwhile.
    await page.goto('/bots')
    await page.waitForURL(/\/signin\?redirectPath=%2Fbots/)
    await page.goto('/signin/two-factor')

    const codeField = page.getByTestId('two-factor-code')
    await codeField.waitFor()
    assert.equal(await codeField.evaluate((el) => el === document.activeElement), true)
    await page.keyboard.type('111111')
    await page.keyboard.press('Enter')
    await page.getByText('That code is not right').first().waitFor()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth
    )
    assert.isAtMost(overflow, 0)
    await page.screenshot({ path: 'tmp/screenshots/two-factor-code-390.png' })

    await codeField.click()
    await codeField.fill('')
    await page.keyboard.type(await appCode(secret))
    await page.getByTestId('two-factor-submit').click()
    await page.waitForURL(/\/bots$/)
    await page.getByTestId('user-menu').first().waitFor()
  }).timeout(360_000)
})
