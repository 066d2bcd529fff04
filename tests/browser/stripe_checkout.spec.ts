import { test } from '@japa/runner'
import type { Page } from 'playwright'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import { startStripeBilling } from '#tests/billing_helpers'
import type { StripeStandIn } from '#tests/stand_ins/stripe'

/*
 * Buying a plan in the browser (docs/billing.md): the Plans page, the pre-checkout dialog, the
 * redirect to Stripe's hosted Checkout (the stand-in's page), and the way back to the app with
 * `?stripe=`: paid (the webhook gives the plan) or canceled (nothing changes).
 */

let stripe: StripeStandIn

async function openCheckoutDialog(page: Page, plan: 'BASIC' | 'STANDARD') {
  await page.goto('/bots/plans')
  const upgrade = page.getByTestId(`upgrade-${plan}`)
  await upgrade.scrollIntoViewIfNeeded()
  await upgrade.click()
  const dialog = page.getByTestId('checkout-dialog')
  await dialog.waitFor()
  return dialog
}

test.group('Stripe checkout in the browser', (group) => {
  group.setup(async () => {
    const billing = await startStripeBilling()
    stripe = billing.stripe
    return billing.stop
  })

  test('a workspace admin buys Pro on Checkout and comes back to the plan at 1440 px', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    const email = uniqueEmail('buyer')
    await signInWithLink(page, email)

    const dialog = await openCheckoutDialog(page, 'STANDARD')
    const company = dialog.locator('#checkout-company')
    await company.fill('')
    await company.pressSequentially('Acme GmbH')
    // The e-mail is the account's own until the buyer changes it.
    assert.equal(await dialog.locator('#checkout-email').inputValue(), email)
    await dialog.getByRole('combobox').click()
    await page.getByRole('option', { name: 'EU VAT' }).click()
    await dialog.locator('#checkout-tax-id').fill('DE123456789')
    await page.keyboard.press('Enter')

    // Stripe's hosted page, with the price of the monthly Pro plan.
    await page.waitForURL(new RegExp(`^${stripe.baseUrl}/checkout/cs_test_`))
    assert.equal(await page.getByTestId('checkout-price').innerText(), 'price_pro_month')
    const customer = stripe.calls.filter((c) => c.path === '/v1/customers').at(-1)!
    assert.equal(customer.body.name, 'Acme GmbH')
    assert.equal(customer.body.email, email)

    await page.getByRole('button', { name: 'Pay' }).click()
    await page.waitForURL(/\/bots\/plans\?stripe=STANDARD/)
    const notice = page.getByTestId('stripe-return')
    await notice.waitFor()
    await page.locator('[data-testid="stripe-return"][data-state="confirmed"]').waitFor()

    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    assert.equal(workspace.plan, 'STANDARD')
    assert.isNotNull(workspace.stripeId)
    // The way on from the notice.
    await notice.getByRole('link').click()
    await page.waitForURL(/\/bots$/)
  })

  test('canceling on Checkout comes back with nothing changed, on a phone', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    await page.setViewportSize({ width: 390, height: 844 })
    const email = uniqueEmail('canceler')
    await signInWithLink(page, email)

    const dialog = await openCheckoutDialog(page, 'BASIC')
    await dialog.getByTestId('checkout-submit').click()
    await page.waitForURL(new RegExp(`^${stripe.baseUrl}/checkout/cs_test_`))
    await page.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL(/\/bots\/plans\?stripe=cancel/)
    await page.locator('[data-testid="stripe-return"][data-state="canceled"]').waitFor()

    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    assert.equal(workspace.plan, 'FREE')
    // The page still fits the phone's width.
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.isAtMost(width, 390)
  })
})
