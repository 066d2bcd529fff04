import { test } from '@japa/runner'
import Credential from '#models/credential'
import PluginPlanSetting from '#models/plugin_plan_setting'
import { resetPluginSettings } from '#services/marketplace'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { uniqueEmail } from '#tests/helpers'

const SECRET = 'sk-browser-0123456789'

test.group('Credentials and the block marketplace in the browser', (group) => {
  let openai: Awaited<ReturnType<typeof startOpenAiStandIn>>
  group.setup(async () => {
    openai = await startOpenAiStandIn({ apiKey: SECRET })
    return () => openai.close()
  })
  group.each.teardown(async () => {
    await resetPluginSettings()
  })

  test('create a credential, see it listed, test it against a local stand-in', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('creds')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    await page.goto('/settings/account/credentials')
    await page.getByTestId('add-credentials').click()
    await page.getByTestId('credential-type').click()
    await page.getByRole('option', { name: 'OpenAI' }).click()
    await page.getByTestId('credential-name').fill('Stand-in key')
    await page.getByTestId('field-apiKey').fill(SECRET)
    await page.getByTestId('field-baseUrl').fill(openai.baseUrl)
    await page.getByTestId('credential-submit').click()

    const row = page.getByTestId('credential-row').filter({ hasText: 'Stand-in key' })
    await row.waitFor()
    const user = await User.findByOrFail('email', email)
    const record = await Credential.query().where('user_id', user.id).firstOrFail()
    assert.notInclude(record.data, SECRET)
    await page.getByTestId('credential-dialog').waitFor({ state: 'detached' })
    assert.notInclude(await page.content(), SECRET)

    await row.getByTestId('credential-test').click()
    const result = row.getByTestId('credential-test-result')
    await result.waitFor()
    await result.getByText('Connected: 3 models available.').waitFor()
    assert.equal(await result.getAttribute('data-ok'), 'true')
    assert.equal(openai.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`)
  })

  test('an admin switches a plugin off for a plan and previews a block form', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    await signInWithLink(page, 'admin@example.com')
    await page.getByTestId('user-menu').click()
    await page.getByTestId('admin-plugins').click()
    await page.waitForURL(/\/admin\/plugins$/)

    // A plugin on by default on FREE (file input is not: FREE has no fileUpload feature).
    const row = page.getByTestId('plugin-row').filter({ hasText: 'rating input' })
    await row.getByTestId('plugin-switch-FREE').click()
    for (let i = 0; i < 300; i++) {
      if (await PluginPlanSetting.findBy('plugin_id', 'rating input')) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const setting = await PluginPlanSetting.findByOrFail('plugin_id', 'rating input')
    assert.equal(setting.plan, 'FREE')
    assert.isFalse(!!setting.enabled)

    await page.goto(`/admin/plugins/${encodeURIComponent('Webhook')}`)
    await page.getByTestId('plugin-form').waitFor()
    await page.getByTestId('field-timeout').fill('500')
    await page.getByTestId('validate-options').click()
    await page.getByTestId('validation-failed').waitFor()
    await page.getByTestId('field-timeout').fill('30')
    // The URL is required since HTTP request serves workflows too (one plugin, both surfaces).
    await page.getByTestId('field-webhook.url').fill('https://example.com/hook')
    await page.getByTestId('validate-options').click()
    await page.getByTestId('validation-ok').waitFor()

    // A plugin's own form.tsx replaces the generated form.
    await page.goto(`/admin/plugins/${encodeURIComponent('AB test')}`)
    await page.getByTestId('custom-form').waitFor()
    await page.getByTestId('field-aPercent').fill('30')
    await page.getByTestId('ab-split').getByText('A: 30% of visitors, B: 70%').waitFor()
  })
})
