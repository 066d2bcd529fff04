import type { Page } from 'playwright'
import { DateTime } from 'luxon'
import User from '#models/user'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { TOUR_FLAGS } from '#validators/user'
import SendMagicLink from '#actions/auth/send_magic_link'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * The guided tours start by themselves for a new user and the getting-started checklist
 * floats over the pages (docs/onboarding.md): a test about something else signs in a user
 * who has been through them. The account is made as the first sign-in makes it; a test of
 * the onboarding itself passes `{ onboarding: true }` and gets a user who has seen nothing.
 */
export async function markOnboardingSeen(email: string) {
  let user = await User.findBy('email', email.trim().toLowerCase())
  if (!user) {
    try {
      user = (await new FindOrCreateUser().handle(email)).user
    } catch {
      // Sign-ups closed for this address: the browser shows why, as the test expects.
      return
    }
  }
  user.tourStatus = Object.fromEntries(TOUR_FLAGS.map((flag) => [flag, true]))
  user.onboardingChecklistDismissedAt ??= DateTime.now()
  await user.save()
}

/** Signs in the way a newcomer does: e-mail on /signin, then the link in the dev mailbox. */
export async function signInThroughMailbox(
  page: Page,
  email: string,
  { onboarding = false }: { onboarding?: boolean } = {}
) {
  if (!onboarding) await markOnboardingSeen(email)
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

/**
 * Signs in by opening the link of a sign-in mail, as a returning user does from the mail: one
 * page load instead of the four of the form, the check-e-mail page and the mailbox. The tests
 * about signing in use signInThroughMailbox; every other test starts here (docs/testing.md,
 * "Times"). When the link cannot be sent (sign-ups closed), the form shows why.
 */
export async function signInWithLink(
  page: Page,
  email: string,
  { onboarding = false }: { onboarding?: boolean } = {}
) {
  if (!onboarding) await markOnboardingSeen(email)
  let link: string
  try {
    link = (await new SendMagicLink().handle({ email })).link
  } catch {
    return signInThroughMailbox(page, email, { onboarding: true })
  }
  // See signInThroughMailbox: a retried test keeps its context.
  await page.context().clearCookies()
  await page.goto(new URL(link).pathname)
  await page.waitForURL(/\/bots$/)
}

/**
 * A new account signed in (signInWithLink), with its user and first workspace; `viewport`
 * sets the page's size for the tests that need a wide editor.
 */
export async function signedIn(
  visit: (url: string) => Promise<Page>,
  prefix: string,
  viewport?: { width: number; height: number }
) {
  const email = uniqueEmail(prefix)
  const page = await visit('/signin')
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  if (viewport) await page.setViewportSize(viewport)
  return { page, user, workspace }
}

/** The tab hidden, as switching to another one does: editors save what is left then. */
export async function hideTab(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  })
}
