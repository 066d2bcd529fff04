import type { Page } from 'playwright'

/** Signs in the way a newcomer does: e-mail on /signin, then the link in the dev mailbox. */
export async function signInThroughMailbox(page: Page, email: string) {
  // A retried test gets the same browser context, still signed in from the first attempt:
  // /signin would redirect away and the retry would fail here, hiding the real error.
  await page.context().clearCookies()
  await page.goto('/signin')
  await page.getByTestId('signin-email').fill(email)
  await page.getByTestId('signin-submit').click()
  await page.waitForURL(/\/signin\/check-email/)
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`)
  await page.getByTestId('mail-link').first().click()
  await page.waitForURL(/\/bots$/)
}
