import { test } from '@japa/runner'
import { signInThroughMailbox } from '#tests/browser/helpers'
import { uniqueEmail } from '#tests/helpers'

test.group('Sessions in the browser', () => {
  test('"Sign out of all devices" asks first, then signs out this browser and the others', async ({
    visit,
  }) => {
    const email = uniqueEmail('devices')
    const laptop = await visit('/signin')
    await laptop.setViewportSize({ width: 1440, height: 900 })
    await signInThroughMailbox(laptop, email)

    // A second device: a browser context of its own, on a phone-sized screen.
    const phoneContext = await laptop
      .context()
      .browser()!
      .newContext({
        baseURL: `http://127.0.0.1:${process.env.PORT}`,
        viewport: { width: 390, height: 844 },
      })
    const phone = await phoneContext.newPage()
    await signInThroughMailbox(phone, email)

    await laptop.goto('/settings/account/profile')
    const button = laptop.getByTestId('sign-out-everywhere')
    await button.click()
    await laptop.getByRole('alertdialog').getByText('Sign out of all devices?').waitFor()
    // Cancelling keeps everyone signed in.
    await laptop.getByTestId('confirm-cancel').click()
    await phone.goto('/bots')
    await phone.waitForURL(/\/bots$/)

    await button.click()
    await laptop.getByTestId('confirm-action').click()
    await laptop.waitForURL(/\/signin$/)
    await laptop.getByText('Signed out of all devices').waitFor()

    await phone.goto('/bots')
    await phone.waitForURL(/\/signin\?redirectPath=%2Fbots/)
    await laptop.goto('/bots')
    await laptop.waitForURL(/\/signin\?redirectPath=%2Fbots/)
    await phoneContext.close()
  }).timeout(120_000)
})
