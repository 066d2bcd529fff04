import { test } from '@japa/runner'
import PluginPlanSetting from '#models/plugin_plan_setting'
import { assertPluginsEnabled, availabilityFor, resetPluginSettings } from '#services/marketplace'
import { createUser, uniqueEmail } from '#tests/helpers'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { DEFAULT_PLANS } from '#shared/plans'

test.group('Block marketplace', (group) => {
  group.each.teardown(async () => {
    await resetPluginSettings()
  })

  test('only admins reach /admin/plugins; it lists every plugin with a switch per plan', async ({
    client,
    assert,
  }) => {
    const someone = await createUser()
    const denied = await client.get('/admin/plugins').loginAs(someone).withInertia().redirects(0)
    assert.notEqual(denied.status(), 200)

    const { user: admin } = await new FindOrCreateUser().handle('admin@example.com')
    const page = await client.get('/admin/plugins').loginAs(admin).withInertia()
    page.assertInertiaComponent('admin/plugins')
    const ids = page.inertiaProps.plugins.map((p: any) => p.id)
    for (const id of [
      'text',
      'text input',
      'Set variable',
      'Condition',
      'Webhook',
      'webhook',
      'openai',
    ]) {
      assert.include(ids, id)
    }
    const text = page.inertiaProps.plugins.find((p: any) => p.id === 'text input')
    assert.deepEqual(text.plans, {
      FREE: true,
      BASIC: true,
      STANDARD: true,
      ENTERPRIZE: true,
      UNLIMITED: true,
    })
    assert.equal(text.category, 'input')
    assert.isNumber(text.version)
  })

  test('an admin disables a plugin on a plan: locked there, enabled elsewhere, hidden when off everywhere', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await new FindOrCreateUser().handle('admin@example.com')
    const off = await client
      .post(`/admin/plugins/${encodeURIComponent('file input')}/plans/FREE`)
      .json({ enabled: false })
      .loginAs(admin)
      .withCsrfToken()
      .redirects(0)
    off.assertStatus(302)

    assert.equal((await availabilityFor('FREE')).get('file input'), 'locked')
    assert.equal((await availabilityFor('BASIC')).get('file input'), 'enabled')

    for (const plan of ['BASIC', 'STANDARD', 'ENTERPRIZE', 'UNLIMITED']) {
      await client
        .post(`/admin/plugins/${encodeURIComponent('file input')}/plans/${plan}`)
        .json({ enabled: false })
        .loginAs(admin)
        .withCsrfToken()
        .redirects(0)
    }
    assert.equal((await availabilityFor('BASIC')).get('file input'), 'hidden')

    const page = await client.get('/admin/plugins').loginAs(admin).withInertia()
    const row = page.inertiaProps.plugins.find((p: any) => p.id === 'file input')
    assert.isFalse(row.plans.FREE)
  })

  test('a non-admin cannot switch plugins', async ({ client, assert }) => {
    const someone = await createUser({ email: uniqueEmail() })
    const response = await client
      .post(`/admin/plugins/text/plans/FREE`)
      .header('accept', 'application/json')
      .json({ enabled: false })
      .loginAs(someone)
      .withCsrfToken()
    response.assertStatus(403)
    assert.lengthOf(await PluginPlanSetting.all(), 0)
  })

  test('the editor sidebar list: enabled, locked with a hint, hidden left out', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const { firstWorkspaceOf } = await import('#tests/helpers')
    const workspace = await firstWorkspaceOf(user)
    await PluginPlanSetting.create({ pluginId: 'file input', plan: 'FREE', enabled: false })
    for (const plan of ['FREE', 'BASIC', 'STANDARD', 'ENTERPRIZE', 'UNLIMITED'] as const) {
      await PluginPlanSetting.create({ pluginId: 'AB test', plan, enabled: false })
    }
    const response = await client.get(`/api/v1/plugins?workspaceId=${workspace.id}`).loginAs(user)
    response.assertStatus(200)
    assert.equal(response.body().plan, 'FREE')
    const byId = new Map(response.body().plugins.map((p: any) => [p.id, p]))
    assert.isFalse((byId.get('text input') as any).locked)
    assert.isTrue((byId.get('file input') as any).locked)
    assert.isFalse(byId.has('AB test'))
    assert.equal((byId.get('text input') as any).form.id, 'text input')

    const stranger = await createUser()
    const hidden = await client.get(`/api/v1/plugins?workspaceId=${workspace.id}`).loginAs(stranger)
    hidden.assertStatus(404)
  })

  test('a block needing a plan feature (file upload) is locked and refused where the plan lacks it', async ({
    client,
    assert,
  }) => {
    const plan = (name: string) => DEFAULT_PLANS.find((p) => p.name === name)!
    // What the Plans page says: no file upload on Free, file upload from Basic up.
    assert.isFalse(plan('FREE').features.fileUpload)
    assert.isTrue(plan('BASIC').features.fileUpload)
    assert.equal((await availabilityFor(plan('FREE'))).get('file input'), 'locked')
    assert.equal((await availabilityFor(plan('BASIC'))).get('file input'), 'enabled')
    assert.equal((await availabilityFor(plan('FREE'))).get('text input'), 'enabled')
    await assertPluginsEnabled(['file input'], plan('BASIC'))
    await assert.rejects(
      () => assertPluginsEnabled(['text', 'file input'], plan('FREE')),
      'Block not available on your plan: This block is not available on your plan. Upgrade your plan or remove the block.'
    )

    // The editor's list on a Free workspace, with no marketplace setting at all.
    const user = await createUser()
    const { firstWorkspaceOf } = await import('#tests/helpers')
    const workspace = await firstWorkspaceOf(user)
    const response = await client.get(`/api/v1/plugins?workspaceId=${workspace.id}`).loginAs(user)
    response.assertStatus(200)
    const byId = new Map(response.body().plugins.map((p: any) => [p.id, p]))
    assert.isTrue((byId.get('file input') as any).locked)
    assert.isFalse((byId.get('text input') as any).locked)
  })

  test('saving or running with a disabled or unknown block gives a clear error', async ({
    assert,
  }) => {
    await PluginPlanSetting.create({ pluginId: 'Code', plan: 'FREE', enabled: false })
    await assertPluginsEnabled(['text', 'text input', 'Code'], 'BASIC')
    await assert.rejects(
      () => assertPluginsEnabled(['text', 'Code'], 'FREE'),
      'Block not available on your plan: This block is not available on your plan. Upgrade your plan or remove the block.'
    )
    await assert.rejects(
      () => assertPluginsEnabled(['no such block'], 'FREE'),
      'Unknown block: This block type is not installed on this server.'
    )
  })
})

test.group('Plugin forms', () => {
  test('options are validated with the validator derived from the declaration', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const ok = await client
      .post('/api/v1/plugins/validate')
      .json({ id: 'number input', options: { min: 1, max: 10, step: 1 } })
      .loginAs(user)
      .withCsrfToken()
    ok.assertStatus(200)
    const bad = await client
      .post('/api/v1/plugins/validate')
      .json({ id: 'Webhook', options: { timeout: 500 } })
      .loginAs(user)
      .withCsrfToken()
    bad.assertStatus(422)
    assert.include(
      bad.body().errors.map((e: any) => e.field),
      'timeout'
    )
  })

  test('an admin previews a plugin form with its defaults', async ({ client, assert }) => {
    const { user: admin } = await new FindOrCreateUser().handle('admin@example.com')
    const page = await client
      .get(`/admin/plugins/${encodeURIComponent('choice input')}`)
      .loginAs(admin)
      .withInertia()
    page.assertInertiaComponent('admin/plugin')
    assert.equal(page.inertiaProps.form.id, 'choice input')
    assert.isObject(page.inertiaProps.defaults)
  })
})
