import { test } from '@japa/runner'
import User from '#models/user'
import { CreateCredential } from '#actions/credentials/create_credential'
import { readCredentials } from '#services/credentials'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import { startLinkedInStandIn } from '../../plugins/linkedin/stand_in.js'

/**
 * Signing in with LinkedIn from the credentials page: Connect, the stand-in's consent page,
 * Allow, and back on the credentials page with the credential connected.
 */
test.group('LinkedIn Connect in the browser', () => {
  test('credentials page -> Connect -> consent page -> back, connected', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const linkedIn = await startLinkedInStandIn({
      memberId: 'x7Fq2LmN',
      name: 'Ada Lovelace',
      validTokens: [],
      refreshToken: 'AQ-refresh',
      clientId: 'li-client-1',
      clientSecret: 'li-secret-1',
    })
    cleanup(() => linkedIn.close())
    const email = uniqueEmail('linkedin')
    const page = await visit('/signin')
    page.setDefaultTimeout(90_000)
    page.setDefaultNavigationTimeout(90_000)
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const record = await new CreateCredential().handle(user, workspace, {
      type: 'linkedin',
      name: 'Company feed',
      data: {
        clientId: 'li-client-1',
        clientSecret: 'li-secret-1',
        baseUrl: linkedIn.baseUrl,
        authorizeUrl: linkedIn.authorizeUrl,
        tokenUrl: linkedIn.tokenUrl,
      },
    })

    await page.goto('/settings/account/credentials')
    const row = page.locator(`[data-testid="credential-row"][data-credential-id="${record.id}"]`)
    await row.getByTestId('credential-oauth-status').getByText('Not connected').waitFor()
    await row.getByTestId('credential-oauth-connect').click()

    await page.waitForURL((url) => url.href.startsWith(linkedIn.authorizeUrl))
    await page.locator('#allow').click()

    await page.waitForURL(/\/settings\/account\/credentials$/)
    await page.getByText('Account connected').waitFor()
    await row.getByTestId('credential-oauth-status').getByText('Connected').waitFor()
    await row.getByTestId('credential-oauth-connect').getByText('Reconnect').waitFor()
    assert.equal(linkedIn.grants[0].get('grant_type'), 'authorization_code')
    await record.refresh()
    assert.match((readCredentials(record).oauth as { accessToken: string }).accessToken, /^AQ/)
  }).timeout(180_000)
})
