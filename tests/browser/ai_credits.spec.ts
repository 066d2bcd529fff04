import { test } from '@japa/runner'
import AiModelPrice from '#models/ai_model_price'
import User from '#models/user'
import { recordAiUsage } from '#services/ai/credits'
import { signInWithLink } from '#tests/browser/helpers'
import { uniqueEmail } from '#tests/helpers'

test.group('AI credits in the browser', (group) => {
  group.each.teardown(async () => {
    await AiModelPrice.query().whereILike('model', 'browser-test-%').delete()
  })

  test('an admin adds and edits a price, is refused a duplicate, and grants credits', async ({
    visit,
    assert,
  }) => {
    const customer = uniqueEmail('credits')
    const page = await visit('/signin')
    await signInWithLink(page, customer)
    await page.context().clearCookies()

    await signInWithLink(page, 'admin@example.com')
    await page.getByTestId('user-menu').click()
    await page.getByTestId('admin-ai-prices').click()
    await page.waitForURL(/\/admin\/ai-prices$/)
    // The admin pages link to each other.
    await page.getByTestId('admin-nav-plugins').click()
    await page.waitForURL(/\/admin\/plugins$/)
    await page.getByTestId('admin-nav-ai-prices').click()
    await page.waitForURL(/\/admin\/ai-prices$/)
    await page.getByTestId('ai-price-formula').waitFor()
    const fallback = page.getByTestId('ai-price-row').first()
    assert.equal(await fallback.getAttribute('data-model'), 'default')

    // Blank, then a duplicate model name: errors under the fields, the dialog stays open.
    await page.getByTestId('ai-price-add').click()
    await page.getByTestId('ai-price-submit').click()
    await page.locator('#ai-price-model-error').getByText('The model field is required').waitFor()
    await page
      .locator('#ai-price-inputToken-error')
      .getByText('The input tokens per credit field is required')
      .waitFor()
    await page.getByTestId('ai-price-model').fill('gpt-4o-mini')
    await page.getByTestId('ai-price-inputToken').fill('1000')
    await page.getByTestId('ai-price-outputToken').fill('500')
    await page.getByTestId('ai-price-submit').click()
    await page
      .locator('#ai-price-model-error')
      .getByText('This model already has a price row')
      .waitFor()
    await page.getByTestId('ai-price-model').fill('browser-test-model')
    await page.getByTestId('ai-price-submit').click()
    await page.getByTestId('ai-price-dialog').waitFor({ state: 'detached' })
    const row = page.locator('[data-testid="ai-price-row"][data-model="browser-test-model"]')
    await row.waitFor()
    const created = await AiModelPrice.findByOrFail('model', 'browser-test-model')
    assert.equal(created.inputToken, 1000)
    assert.equal(created.outputToken, 500)

    await row.getByTestId('ai-price-edit').click()
    await page.getByTestId('ai-price-outputToken').fill('250')
    await page.getByTestId('ai-price-submit').click()
    await page.getByTestId('ai-price-dialog').waitFor({ state: 'detached' })
    await created.refresh()
    assert.equal(created.outputToken, 250)

    await row.getByTestId('ai-price-delete').click()
    await page.getByTestId('confirm-action').click()
    await row.waitFor({ state: 'detached' })
    assert.isNull(await AiModelPrice.find(created.id))
    // Undo from the toast puts the row back as it was; then delete it for good.
    await page.getByRole('button', { name: 'Undo' }).click()
    await row.waitFor()
    const restored = await AiModelPrice.findByOrFail('model', 'browser-test-model')
    assert.equal(restored.outputToken, 250)
    await row.getByTestId('ai-price-delete').click()
    await page.getByTestId('confirm-action').click()
    await row.waitFor({ state: 'detached' })

    await page.getByTestId('ai-credits-email').fill(customer)
    await page.getByTestId('ai-credits-amount').fill('2.5')
    await page.getByTestId('ai-credits-submit').click()
    await page.getByText(`${customer} now has 12.50 AI credits`).waitFor()
    const user = await User.findByOrFail('email', customer)
    assert.equal(user.aiCredits, 12.5)
  })

  test('Billing & Usage shows the credits left, this month and the latest calls', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('usage')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    await page.goto('/settings/account/billing')
    await page.getByTestId('ai-usage-empty').waitFor()
    assert.equal(await page.getByTestId('ai-credits-left').textContent(), '10.00')

    const user = await User.findByOrFail('email', email)
    await recordAiUsage({
      userId: user.id,
      source: 'openai',
      model: 'gpt-4o-mini',
      inputTokens: 1234,
      outputTokens: 567,
    })
    await page.reload()
    await page.getByTestId('ai-usage-table').waitFor()
    const left = page.getByTestId('ai-credits-left')
    assert.equal(await left.textContent(), '9.9995')
    assert.equal(await left.getAttribute('data-exact'), '9.999474700')
    await left.hover()
    await page.getByRole('tooltip').getByText('Exact balance: 9.999474700').waitFor()
    assert.equal(await page.getByTestId('ai-month-calls').textContent(), '1')
    assert.equal(await page.getByTestId('ai-usage-row').count(), 1)
    const cells = await page.getByTestId('ai-usage-row').locator('td').allTextContents()
    assert.deepEqual(cells.slice(1), ['openai', 'gpt-4o-mini', '1,234', '567', '0.000525'])
  })
})
