import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { recordVersion } from '#actions/workflows/workflow_history'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/** The documentation entry, the /analytics page, the fetches the editors make. */
test.group('Docs, analytics page and the editors’ fetches', () => {
  test('/docs renders the guides of docs/, links between them stay in the app', async ({
    client,
    assert,
  }) => {
    const first = await client.get('/docs').withInertia()
    first.assertStatus(200)
    first.assertInertiaComponent('docs/show')
    const slugs = first.inertiaProps.pages.map((page: { slug: string }) => page.slug)
    assert.includeMembers(slugs, ['editor', 'workflows', 'testing', 'plugins'])
    assert.equal(first.inertiaProps.current.slug, 'editor')
    assert.include(first.inertiaProps.current.html, '<h1>')

    // README-style links (`docs/x.md`, `x.md#part`) point at /docs/x.
    const security = await client.get('/docs/security').withInertia()
    assert.include(security.inertiaProps.current.html, 'href="/docs/sandbox"')
    assert.include(
      security.inertiaProps.current.html,
      'href="/docs/sandbox#sharing-the-pool-between-workspaces"'
    )
    assert.notInclude(security.inertiaProps.current.html, `href="sandbox.md`)

    for (const missing of ['/docs/nope', '/docs/..%2F.env', '/docs/README']) {
      const response = await client.get(missing).withInertia()
      response.assertStatus(404)
    }
  })

  test('the menus open DOCS_URL, else /docs', async ({ client, assert }) => {
    const user = await createUser()
    const page = await client.get('/bots').loginAs(user).withInertia()
    assert.equal(page.inertiaProps.docsUrl, '/docs')
  })

  test('/bots/{id}/results/analytics opens the Results tab on its analytics', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Counted' })
    const page = await client.get(`/bots/${bot.id}/results/analytics`).loginAs(user).withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('bots/edit')
    assert.equal(page.inertiaProps.tab, 'results')
    assert.equal(page.inertiaProps.resultsView, 'analytics')
    const table = await client.get(`/bots/${bot.id}/results`).loginAs(user).withInertia()
    assert.equal(table.inertiaProps.resultsView, 'table')
    // Results are for members: someone else gets the not-found page.
    const stranger = await createUser()
    const refused = await client
      .get(`/bots/${bot.id}/results/analytics`)
      .loginAs(stranger)
      .withInertia()
    refused.assertStatus(404)
  })

  test('GET /api/v1/bots/{id}/published: null before publishing, then the published content', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Live' })
    const before = await client.get(`/api/v1/bots/${bot.id}/published`).loginAs(user)
    before.assertStatus(200)
    assert.deepEqual(before.body(), { published: null })

    await new PublishBot().handle(user, workspace, bot)
    const after = await client.get(`/api/v1/bots/${bot.id}/published`).loginAs(user)
    after.assertStatus(200)
    assert.deepEqual(after.body().published.groups, bot.groups)
    assert.isString(after.body().published.publishedAt)

    const stranger = await createUser()
    const refused = await client.get(`/api/v1/bots/${bot.id}/published`).loginAs(stranger)
    refused.assertStatus(404)
  })

  test("a person's history version without a person is refused: 'User not found.'", async ({
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const workflow = await new CreateWorkflow().handle(user, workspace, {})
    await assert.rejects(
      () =>
        db.transaction((trx) => recordVersion(workflow, { user: null, updatedBy: 'user' }, trx)),
      'User not found.'
    )
    // The copilot's versions have no person behind them, by design.
    const version = await db.transaction((trx) =>
      recordVersion(workflow, { user: null, updatedBy: 'assistant' }, trx)
    )
    assert.equal(version.updatedBy, 'assistant')
  })
})
